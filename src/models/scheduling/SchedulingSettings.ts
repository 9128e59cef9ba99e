import type { Knex } from "knex";
import { DEFAULT_TIMEZONE, type EndedBookingStatus } from "../../scheduling/constants";
import { SchedulingModel } from "./SchedulingModel";

export interface SchedulingSettingsValues {
  /** Minutes before an appointment's start at which a reminder is posted into its conversation. */
  reminder_offsets_minutes: number[];
  /** How long a booking of a service that requires prepayment holds its slot unpaid. */
  prepayment_hold_minutes: number;
  /** A new booking (or a move) must start at least this many minutes from now; the calendar offers no slot sooner. */
  minimum_notice_minutes: number;
  /** The zone of new resources, and of the calendar's from/to when they carry no offset. */
  timezone: string;
  /** What a booking still scheduled or confirmed becomes once its end plus the grace has passed; null: it stays as it is. */
  ended_booking_status: EndedBookingStatus | null;
  ended_booking_grace_minutes: number;
  /** Minutes before a scheduled booking's start at which its conversation is asked to confirm it; null: never. */
  confirmation_request_minutes_before: number | null;
}

export const DEFAULT_SCHEDULING_SETTINGS: SchedulingSettingsValues = {
  reminder_offsets_minutes: [1440, 120],
  prepayment_hold_minutes: 30,
  minimum_notice_minutes: 0,
  timezone: DEFAULT_TIMEZONE,
  ended_booking_status: null,
  ended_booking_grace_minutes: 60,
  confirmation_request_minutes_before: null,
};

/** An account's booking settings; an account without a row has the defaults. */
export class SchedulingSettings extends SchedulingModel {
  static tableName = "scheduling_settings";

  declare account_id: number;
  declare reminder_offsets_minutes: number[];
  declare prepayment_hold_minutes: number;
  declare minimum_notice_minutes: number;
  declare timezone: string | null;
  declare ended_booking_status: EndedBookingStatus | null;
  declare ended_booking_grace_minutes: number;
  declare confirmation_request_minutes_before: number | null;

  static async of(accountId: number, db?: Knex): Promise<SchedulingSettingsValues> {
    const row = await SchedulingSettings.query(db).findOne({ account_id: accountId });
    if (!row) return DEFAULT_SCHEDULING_SETTINGS;
    return {
      reminder_offsets_minutes: row.reminder_offsets_minutes,
      prepayment_hold_minutes: row.prepayment_hold_minutes,
      minimum_notice_minutes: row.minimum_notice_minutes,
      timezone: row.timezone ?? DEFAULT_TIMEZONE,
      ended_booking_status: row.ended_booking_status,
      ended_booking_grace_minutes: row.ended_booking_grace_minutes,
      confirmation_request_minutes_before: row.confirmation_request_minutes_before,
    };
  }

  /** Writes the changed values (one statement, so concurrent edits of different fields both land). */
  static async change(accountId: number, changes: Partial<SchedulingSettingsValues>, db?: Knex): Promise<SchedulingSettingsValues> {
    const knex = db ?? SchedulingSettings.knex();
    const row = { account_id: accountId, ...DEFAULT_SCHEDULING_SETTINGS, ...changes };
    const merge = Object.keys(changes).length ? [...Object.keys(changes), "updated_at"] : ["updated_at"];
    await knex(SchedulingSettings.tableName).insert(row).onConflict("account_id").merge(merge);
    return SchedulingSettings.of(accountId, knex);
  }
}
