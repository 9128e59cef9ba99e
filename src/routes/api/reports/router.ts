import { ApiRouter } from "../../../http/router";
import { accountScope } from "../../../middlewares/accountScope";
import { authenticateApplication } from "../../../middlewares/authentication";
import { registerReportRoutes } from "./reports";
import { registerSummaryReportRoutes } from "./summaryReports";
import { registerReportExportRoutes } from "./exports";
import { registerReportBreakdownRoutes } from "./breakdowns";

/** /api/v2/accounts/:account_id/...: Chatwoot's v2 reports, for members of the account (never bots). */
export function reportsRouter(): ApiRouter {
  const router = new ApiRouter("/api/v2", {
    tag: "Reports",
    security: ["userApiKey"],
    middleware: [authenticateApplication("user"), accountScope],
  });
  registerReportRoutes(router);
  registerSummaryReportRoutes(router);
  registerReportExportRoutes(router);
  registerReportBreakdownRoutes(router);
  return router;
}
