import { ApiRouter } from "../http/router";
import { accountScope } from "../middlewares/accountScope";
import { authenticateApplication, authenticatePlatform } from "../middlewares/authentication";
import { registerAccountRoutes } from "./api/accounts/accounts";
import { registerInvitationRoutes } from "./api/profile/invitations";
import { registerProfileRoutes } from "./api/profile/profile";
import { registerAgentRoutes } from "./api/agents/agents";
import { registerContactLabelRoutes, registerLabelRoutes } from "./api/labels/labels";
import { registerCannedResponseRoutes } from "./api/cannedResponses/cannedResponses";
import { registerInboxAgentBotRoutes } from "./api/inboxes/agentBot";
import { registerContactInboxRoutes } from "./api/contacts/contactInboxes";
import { registerAgentBotRoutes } from "./api/agentBots/agentBots";
import { registerWebhookRoutes } from "./api/webhooks/webhooks";
import { registerIntegrationAppRoutes } from "./api/integrations/apps";
import { registerIntegrationHookRoutes } from "./api/integrations/hooks";
import { registerAssignableAgentRoutes } from "./api/inboxes/assignableAgents";
import { registerInboxRoutes } from "./api/inboxes/inboxes";
import { registerInboxMemberRoutes } from "./api/inboxMembers/inboxMembers";
import { registerContactExtraRoutes } from "./api/contacts/contactExtras";
import { registerContactRoutes } from "./api/contacts/contacts";
import { registerContactTransferRoutes } from "./api/contactTransfers/contactTransfers";
import { registerContactNoteRoutes } from "./api/contactNotes/contactNotes";
import { registerMacroRoutes } from "./api/macros/macros";
import { registerBulkActionRoutes } from "./api/bulkActions/bulkActions";
import { registerSearchRoutes } from "./api/search/search";
import { registerDashboardAppRoutes } from "./api/dashboardApps/dashboardApps";
import { registerContactMergeRoutes } from "./api/contactMerge/contactMerge";
import { registerCustomAttributeDefinitionRoutes } from "./api/customAttributeDefinitions/customAttributeDefinitions";
import { registerAuditLogRoutes } from "./api/auditLogs/auditLogs";
import { registerAutomationRuleRoutes } from "./api/automationRules/automationRules";
import { registerCustomFilterRoutes } from "./api/customFilters/customFilters";
import { registerArticleRoutes } from "./api/helpCenter/articles";
import { registerCategoryRoutes } from "./api/helpCenter/categories";
import { registerPortalRoutes } from "./api/helpCenter/portals";
import { registerNotificationRoutes } from "./api/notifications/notifications";
import { registerCampaignRoutes } from "./api/campaigns/campaigns";
import { registerTeamRoutes } from "./api/teams/teams";
import { registerTeamMemberRoutes } from "./api/teams/teamMembers";
import { registerPlatformAccountRoutes } from "./platform/accounts/accounts";
import { registerPlatformAccountUserRoutes } from "./platform/accountUsers/accountUsers";
import { registerPlatformAgentBotRoutes } from "./platform/agentBots/agentBots";
import { registerPlatformUserRoutes } from "./platform/users/users";

/** /platform/api/v1: provisioning with a platform app token. */
export function platformRouter(): ApiRouter {
  const router = new ApiRouter("/platform/api/v1", { tag: "Platform", security: ["platformAppApiKey"], middleware: [authenticatePlatform] });
  registerPlatformAccountRoutes(router);
  registerPlatformAccountUserRoutes(router);
  registerPlatformUserRoutes(router);
  registerPlatformAgentBotRoutes(router);
  return router;
}

/** /api/v1/accounts/:id itself: a user token, the account looked up among the user's own. */
export function accountRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1", { tag: "Account", security: ["userApiKey"], middleware: [authenticateApplication("user")] });
  registerAccountRoutes(router);
  registerProfileRoutes(router);
  registerInvitationRoutes(router);
  return router;
}

/** /api/v1/accounts/:account_id/...: a member of the account (agent bots only where a route allows them). */
export function accountScopedRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1", {
    tag: "Account resources",
    security: ["userApiKey"],
    middleware: [authenticateApplication("user"), accountScope],
  });
  registerAgentBotRoutes(router);
  registerWebhookRoutes(router);
  registerIntegrationAppRoutes(router);
  registerIntegrationHookRoutes(router);
  registerInboxRoutes(router);
  registerAssignableAgentRoutes(router);
  registerInboxMemberRoutes(router);
  registerContactExtraRoutes(router);
  registerContactTransferRoutes(router);
  registerContactRoutes(router);
  registerContactMergeRoutes(router);
  registerContactNoteRoutes(router);
  registerMacroRoutes(router);
  registerBulkActionRoutes(router);
  registerSearchRoutes(router);
  registerDashboardAppRoutes(router);
  registerCustomAttributeDefinitionRoutes(router);
  registerAuditLogRoutes(router);
  registerAutomationRuleRoutes(router);
  registerCustomFilterRoutes(router);
  registerTeamRoutes(router);
  registerTeamMemberRoutes(router);
  registerAgentRoutes(router);
  registerLabelRoutes(router);
  registerContactLabelRoutes(router);
  registerCannedResponseRoutes(router);
  registerInboxAgentBotRoutes(router);
  registerContactInboxRoutes(router);
  registerPortalRoutes(router);
  registerCategoryRoutes(router);
  registerArticleRoutes(router);
  registerNotificationRoutes(router);
  registerCampaignRoutes(router);
  return router;
}
