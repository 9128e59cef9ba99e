import type { Knex } from "knex";
import { SchedulingModel } from "./SchedulingModel";

/** An account-wide day off; recurring ones match the same month and day every year. */
export class Holiday extends SchedulingModel {
  static tableName = "scheduling_holidays";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["date"];

  declare account_id: number;
  declare date: string;
  declare title: string;
  declare recurring_yearly: boolean;
  declare working_day_override: boolean;
  declare custom_attributes: Record<string, unknown>;

  static ofAccount(accountId: number, db?: Knex) {
    return Holiday.query(db).where("account_id", accountId).orderBy(["date", "id"]);
  }
}
