import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { requireAdministrator } from "../../../../policies";
import { recordEvent } from "../../../../events/outbox";
import { ok } from "../respond";
import { settingsResponse, settingsUpdate } from "./schema";
import { jsonEqual } from "../../../../lib/jsonEqual";

/** The settings a booking's workflow plans its steps by. */
const TIMED_SETTINGS = ["reminder_offsets_minutes", "ended_booking_status", "ended_booking_grace_minutes", "confirmation_request_minutes_before"] as const;

/** The account's booking settings: reminder offsets, the hold of services that require prepayment, what an ended booking left open becomes. */
export function registerSettingsRoutes(router: ApiRouter, base: string) {
  const path = `${base}/settings`;

  router.route({ method: "get", path, summary: "Scheduling settings", params: accountParams, response: settingsResponse }, async (ctx) => {
    ok(ctx, await SchedulingSettings.of(ctx.state.account!.id, ctx.deps.knex));
  });

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path,
      summary: "Change the scheduling settings; upcoming reminders move with the offsets",
      params: accountParams,
      body: settingsUpdate,
      response: settingsResponse,
    },
    async (ctx, { body }) => {
      const accountId = ctx.state.account!.id;
      const settings = await ctx.deps.knex.transaction(async (trx) => {
        const before = await SchedulingSettings.of(accountId, trx);
        const after = await SchedulingSettings.change(accountId, body, trx);
        // Live bookings' workflows re-plan their reminders and end-of-booking step; committed with the change, so none is missed.
        if (TIMED_SETTINGS.some((key) => !jsonEqual(before[key], after[key]))) {
          await recordEvent(trx, { accountId, name: "scheduling_settings_changed", payload: { event: "scheduling_settings_changed", ...after } });
        }
        return after;
      });
      ok(ctx, settings);
    },
  );
}
