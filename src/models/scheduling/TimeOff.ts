import type { Knex } from "knex";
import type { AnyQueryBuilder } from "objection";
import { SchedulingModel } from "./SchedulingModel";

/** A period a resource cannot be booked (vacation, sick leave...); no resource means everyone. */
export class TimeOff extends SchedulingModel {
  static tableName = "scheduling_time_offs";
  static jsonAttributes = ["custom_attributes"];

  account_id!: number;
  resource_id!: number | null;
  kind!: string;
  starts_at!: Date;
  ends_at!: Date;
  title!: string | null;
  notes!: string | null;
  custom_attributes!: Record<string, unknown>;

  static ofAccount(accountId: number, db?: Knex) {
    return TimeOff.query(db).where("account_id", accountId).orderBy(["starts_at", "id"]);
  }

  /** Time off that applies to any of the resources (ids, or a query of them; their own or account-wide) and overlaps [from, to). */
  static affecting(accountId: number, resourceIds: readonly number[] | AnyQueryBuilder, from: Date, to: Date, db?: Knex) {
    return TimeOff.ofAccount(accountId, db)
      .where((q) => q.whereNull("resource_id").orWhereIn("resource_id", resourceIds as number[]))
      .where("starts_at", "<", to)
      .where("ends_at", ">", from);
  }
}
