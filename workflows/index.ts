export { accountDeletionWorkflow } from "./accountDeletion";
export { webhookDeliveryWorkflow } from "./webhookDelivery";
export { conversationTimerWorkflow } from "./conversationTimer";
export { accountTimersWorkflow } from "./accountTimers";
export { automationEventWorkflow, automationRuleWorkflow } from "./automationRule";
