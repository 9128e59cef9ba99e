import type { Knex } from "knex";
import { SchedulingModel } from "./SchedulingModel";

/** An account-wide day off; recurring ones match the same month and day every year. */
export class Holiday extends SchedulingModel {
  static tableName = "scheduling_holidays";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["date"];

  account_id!: number;
  date!: string;
  title!: string;
  recurring_yearly!: boolean;
  working_day_override!: boolean;
  custom_attributes!: Record<string, unknown>;

  static ofAccount(accountId: number, db?: Knex) {
    return Holiday.query(db).where("account_id", accountId).orderBy(["date", "id"]);
  }
}
