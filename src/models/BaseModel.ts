import { Model, type ModelOptions, type QueryContext } from "objection";

/** Rows carry created_at/updated_at as timestamptz; updated_at moves on every update through a model. */
export class BaseModel extends Model {
  id!: number;
  created_at!: Date;
  updated_at!: Date;

  $beforeUpdate(_opt: ModelOptions, _ctx: QueryContext): void {
    this.updated_at = new Date();
  }
}
