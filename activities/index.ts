import type { AppDeps } from "../src/deps";
import { createAccountDeletionActivities } from "./accountDeletion";
import { createAttachmentAnalysisActivities } from "./attachmentAnalysis";
import { createAvatarFetchActivities } from "./avatarFetch";
import { createAppointmentActivities } from "./appointment";
import { createAutomationRuleActivities } from "./automationRule";
import { createBulkActionActivities } from "./bulkAction";
import { createMacroExecutionActivities } from "./macroExecution";
import { createConversationTimerActivities } from "./conversationTimer";
import { createTranscriptActivities } from "./transcript";
import { createCampaignActivities } from "./campaign";
import { createContactTransferActivities } from "./contactTransfers";
import { createOfferActivities } from "./offer";
import { createWebhookDeliveryActivities } from "./webhookDelivery";

/** All activities, bound to their dependencies; workflows see only their types. */
export function createActivities(deps: AppDeps) {
  return {
    ...createAccountDeletionActivities(deps),
    ...createWebhookDeliveryActivities(deps),
    ...createConversationTimerActivities(deps),
    ...createAutomationRuleActivities(deps),
    ...createAppointmentActivities(deps),
    ...createAttachmentAnalysisActivities(deps),
    ...createAvatarFetchActivities(deps),
    ...createMacroExecutionActivities(deps),
    ...createBulkActionActivities(deps),
    ...createTranscriptActivities(deps),
    ...createCampaignActivities(deps),
    ...createOfferActivities(deps),
    ...createContactTransferActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
