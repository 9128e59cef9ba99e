import { ApiRouter } from "../../../http/router";
import { accountScope } from "../../../middlewares/accountScope";
import { authenticateApplication } from "../../../middlewares/authentication";
import { registerReportRoutes } from "./reports";
import { registerSummaryReportRoutes } from "./summaryReports";

/** /api/v2/accounts/:account_id/...: Chatwoot's v2 reports, for members of the account (never bots). */
export function reportsRouter(): ApiRouter {
  const router = new ApiRouter("/api/v2", {
    tag: "Reports",
    security: ["userApiKey"],
    middleware: [authenticateApplication("user"), accountScope],
  });
  registerReportRoutes(router);
  registerSummaryReportRoutes(router);
  return router;
}
