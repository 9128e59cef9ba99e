import { ApiRouter } from "../../../http/router";
import { accountScope } from "../../../middlewares/accountScope";
import { authenticateApplication } from "../../../middlewares/authentication";
import { registerAppointmentRoutes } from "./appointments/appointments";
import { registerAvailabilityRoutes } from "./availability/availability";
import { registerCalendarRoutes } from "./calendar/calendar";
import { registerContactRoutes } from "./contacts/contacts";
import { registerExceptionRoutes } from "./exceptions/exceptions";
import { registerLedgerRoutes } from "./ledger/ledger";
import { schedulingEnabled, schedulingErrors, schedulingValidationError } from "./middleware";
import { registerReportRoutes } from "./reports/reports";
import { registerResourceRoutes } from "./resources/resources";
import { registerServiceRoutes } from "./services/services";
import { registerSettingsRoutes } from "./settings/settings";

/**
 * /api/v1/accounts/:account_id/scheduling: a member of the account, with the scheduling feature.
 * Its own router because its errors have their own shape (`{error, code, details}`).
 */
export function schedulingRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1", {
    tag: "Scheduling",
    security: ["userApiKey"],
    middleware: [authenticateApplication("user"), accountScope, schedulingErrors, schedulingEnabled],
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
  return router;
}
