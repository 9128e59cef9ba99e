import type { CompensationType } from "../../scheduling/constants";
import { SchedulingModel } from "./SchedulingModel";

/** Someone or something that can be booked (a doctor, a room), with its own timezone and slot length. */
export class Resource extends SchedulingModel {
  static tableName = "scheduling_resources";
  static jsonAttributes = ["custom_attributes"];

  declare account_id: number;
  declare user_id: number | null;
  declare name: string;
  declare specialty: string | null;
  declare timezone: string;
  declare slot_duration_min: number;
  declare compensation_type: CompensationType;
  declare compensation_value: number;
  declare active: boolean;
  declare custom_attributes: Record<string, unknown>;

  static ofAccount(accountId: number) {
    return Resource.query().where("account_id", accountId);
  }

  static async hasAppointments(resourceId: number): Promise<boolean> {
    return Boolean(await Resource.knex()("scheduling_appointments").where("resource_id", resourceId).first("id"));
  }
}
