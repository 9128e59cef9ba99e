import type { Knex } from "knex";
import { SchedulingModel } from "./SchedulingModel";

/** One resource's hours on one date, replacing its weekly rules (and any holiday) for that day. */
export class WorkdayOverride extends SchedulingModel {
  static tableName = "scheduling_workday_overrides";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["date"];

  declare account_id: number;
  declare resource_id: number;
  declare date: string;
  declare start_minute: number;
  declare end_minute: number;
  declare break_start_minute: number | null;
  declare break_end_minute: number | null;
  declare break_title: string | null;
  declare custom_attributes: Record<string, unknown>;

  static ofAccount(accountId: number, db?: Knex) {
    return WorkdayOverride.query(db).where("account_id", accountId).orderBy(["date", "resource_id", "id"]);
  }
}
