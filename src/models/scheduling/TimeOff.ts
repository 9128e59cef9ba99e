import type { Knex } from "knex";
import type { AnyQueryBuilder } from "objection";
import { SchedulingModel } from "./SchedulingModel";

/** A period a resource cannot be booked (vacation, sick leave...); no resource means everyone. */
export class TimeOff extends SchedulingModel {
  static tableName = "scheduling_time_offs";
  static jsonAttributes = ["custom_attributes"];

  declare account_id: number;
  declare resource_id: number | null;
  declare kind: string;
  declare starts_at: Date;
  declare ends_at: Date;
  declare title: string | null;
  declare notes: string | null;
  declare custom_attributes: Record<string, unknown>;

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
