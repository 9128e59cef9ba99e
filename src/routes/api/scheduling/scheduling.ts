import type { ZodObject, ZodType } from "zod";
import type { AppContext } from "../../../http/context";
import { ApiRouter, type RouteInput, type RouteSpec } from "../../../http/router";
import { usersOnly } from "../../../policies/conversations";
import { accountScope } from "../../../middlewares/accountScope";
import { authenticateApplication } from "../../../middlewares/authentication";
import { openToBots } from "./botAccess";
import { registerAppointmentRoutes } from "./appointments/appointments";
import { registerAvailabilityRoutes } from "./availability/availability";
import { registerCalendarRoutes } from "./calendar/calendar";
import { registerContactRoutes } from "./contacts/contacts";
import { registerExceptionRoutes } from "./exceptions/exceptions";
import { registerLedgerRoutes } from "./ledger/ledger";
import { registerOfferRoutes } from "./offers/offers";
import { schedulingEnabled, schedulingErrors, schedulingValidationError } from "./middleware";
import { registerReportRoutes } from "./reports/reports";
import { registerResourceRoutes } from "./resources/resources";
import { registerServiceRoutes } from "./services/services";
import { registerSettingsRoutes } from "./settings/settings";

/** Scheduling refuses agent bots on every route but those marked openToBots (botAccess.ts): a new route is closed to them unless it says otherwise. */
class SchedulingRouter extends ApiRouter {
  route<P extends ZodObject | undefined = undefined, Q extends ZodType | undefined = undefined, B extends ZodType | undefined = undefined>(
    spec: RouteSpec<P, Q, B>,
    handler: (ctx: AppContext, input: RouteInput<P, Q, B>) => Promise<void>,
  ): this {
    const middleware = spec.middleware ?? [];
    return super.route(middleware.includes(openToBots) ? spec : { ...spec, middleware: [usersOnly, ...middleware] }, handler);
  }
}

/**
 * /api/v1/accounts/:account_id/scheduling: a member of the account, with the scheduling feature, or
 * an agent bot of the account on the routes open to bots. Its own router because its errors have
 * their own shape (`{error, code, details}`).
 */
export function schedulingRouter(): ApiRouter {
  const router = new SchedulingRouter("/api/v1", {
    tag: "Scheduling",
    security: ["userApiKey"],
    middleware: [authenticateApplication("user_or_bot"), accountScope, schedulingErrors, schedulingEnabled],
    onInvalid: schedulingValidationError,
  });
  const base = "/accounts/:account_id/scheduling";
  registerCalendarRoutes(router, base);
  registerAvailabilityRoutes(router, base);
  registerResourceRoutes(router, base);
  registerExceptionRoutes(router, base);
  registerServiceRoutes(router, base);
  registerContactRoutes(router, base);
  registerAppointmentRoutes(router, base);
  registerLedgerRoutes(router, base);
  registerSettingsRoutes(router, base);
  registerReportRoutes(router, base);
  registerOfferRoutes(router, "/accounts/:account_id/conversations/:conversation_id/scheduling/offers");
  return router;
}
