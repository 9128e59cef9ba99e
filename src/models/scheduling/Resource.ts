import type { CompensationType } from "../../scheduling/constants";
import { SchedulingModel } from "./SchedulingModel";

/** Someone or something that can be booked (a doctor, a room), with its own timezone and slot length. */
export class Resource extends SchedulingModel {
  static tableName = "scheduling_resources";
  static jsonAttributes = ["custom_attributes"];

  account_id!: number;
  user_id!: number | null;
  name!: string;
  specialty!: string | null;
  timezone!: string;
  slot_duration_min!: number;
  compensation_type!: CompensationType;
  compensation_value!: number;
  active!: boolean;
  custom_attributes!: Record<string, unknown>;

  static ofAccount(accountId: number) {
    return Resource.query().where("account_id", accountId);
  }

  static async hasAppointments(resourceId: number): Promise<boolean> {
    return Boolean(await Resource.knex()("scheduling_appointments").where("resource_id", resourceId).first("id"));
  }
}
