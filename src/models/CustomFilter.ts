import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { BaseModel } from "./BaseModel";

/** Chatwoot's integer enum: the index is the stored code. */
export const FILTER_TYPES = ["conversation", "contact", "report"] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** CustomFilter#validate_number_of_filters: it counts the user's filters in the account, this one included once saved. */
const MAX_FILTERS = 50;

/** A saved filter (Chatwoot's custom view): one user's, in one account. */
export class CustomFilter extends BaseModel {
  static tableName = "custom_filters";
  static jsonAttributes = ["query"];

  declare account_id: number;
  declare user_id: number;
  declare name: string;
  declare filter_type: number;
  declare query: Record<string, unknown>;

  get filterTypeName(): FilterType {
    return FILTER_TYPES[this.filter_type]!;
  }

  /** The user's filters in the account; inside a transaction, `lock` serialises the user's writes by locking their membership. */
  static ofUser(db: Knex, accountId: number, userId: number) {
    return CustomFilter.query(db).where({ account_id: accountId, user_id: userId });
  }

  /**
   * Chatwoot's limit, checked as its validation runs: with the existing filters counted (so a save
   * is refused once more than 50 exist, creation and update alike). Call it under lockMembership.
   */
  static async assertWithinLimit(trx: Knex.Transaction, accountId: number, userId: number): Promise<void> {
    const count = await CustomFilter.ofUser(trx, accountId, userId).resultSize();
    if (count > MAX_FILTERS) throw ValidationError.of("account_id", `We do not allow creating >${MAX_FILTERS} custom views per account per user`);
  }

  /** Orders one user's filter writes in an account, so the limit holds under concurrent requests. */
  static async lockMembership(trx: Knex.Transaction, accountId: number, userId: number): Promise<void> {
    await trx("account_users").where({ account_id: accountId, user_id: userId }).forUpdate().first("id");
  }
}
