import type { Knex } from "knex";
import { Model, type ModelClass, type ModelOptions, type QueryContext } from "objection";
import { NotFound } from "../errors";

/**
 * Rows carry created_at/updated_at as timestamptz; updated_at moves on every update through a model.
 * Columns are `declare`d (lint holds it): a class field would define each one as undefined on every
 * instance before objection sets it.
 */
export class BaseModel extends Model {
  declare id: number;
  declare created_at: Date;
  declare updated_at: Date;

  /**
   * objection's, with the row's columns set by one Object.assign: its own loop of keyed stores over
   * every model class's columns was a visible share of the conversation list's CPU (bench/HISTORY.md).
   * What $parseDatabaseJson makes of the row is what is set, as before.
   */
  static fromDatabaseJson<M extends Model>(this: new () => M, json: object): M {
    const model = new this();
    return Object.assign(model, model.$parseDatabaseJson(json ?? {}));
  }

  $beforeUpdate(_opt: ModelOptions, _ctx: QueryContext): void {
    this.updated_at = new Date();
  }

  /**
   * The account's row, locked until the transaction ends: what an update reads to merge into or
   * to audit against is what is stored, and a row deleted meanwhile is a 404.
   */
  static async lockInAccount<M extends BaseModel>(
    this: (new () => M) & typeof BaseModel,
    trx: Knex.Transaction,
    accountId: number,
    id: number,
    missing: () => Error = NotFound,
  ): Promise<M> {
    const row = await (this as ModelClass<M>).query(trx).findOne({ account_id: accountId, id }).forUpdate();
    if (!row) throw missing();
    return row as M;
  }
}
