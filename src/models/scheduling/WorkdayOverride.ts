import type { Knex } from "knex";
import { SchedulingModel } from "./SchedulingModel";

/** One resource's hours on one date, replacing its weekly rules (and any holiday) for that day. */
export class WorkdayOverride extends SchedulingModel {
  static tableName = "scheduling_workday_overrides";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["date"];

  account_id!: number;
  resource_id!: number;
  date!: string;
  start_minute!: number;
  end_minute!: number;
  break_start_minute!: number | null;
  break_end_minute!: number | null;
  break_title!: string | null;
  custom_attributes!: Record<string, unknown>;

  static ofAccount(accountId: number, db?: Knex) {
    return WorkdayOverride.query(db).where("account_id", accountId).orderBy(["date", "resource_id", "id"]);
  }
}
