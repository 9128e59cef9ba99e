export { accountDeletionWorkflow } from "./accountDeletion";
export { webhookDeliveryWorkflow } from "./webhookDelivery";
export { conversationTimerWorkflow } from "./conversationTimer";
export { accountTimersWorkflow } from "./accountTimers";
export { automationEventWorkflow, automationRuleWorkflow } from "./automationRule";
export { appointmentWorkflow, schedulingSettingsWorkflow } from "./appointment";
export { expensePayoutWorkflow } from "./expensePayout";
export { webhookLaneWorkflow } from "./webhookLane";
export { attachmentAnalysisWorkflow } from "./attachmentAnalysis";
