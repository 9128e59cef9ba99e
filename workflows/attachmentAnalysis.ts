import { proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";

const { analyzeMessageImages } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  // Storage may be briefly away; an image that cannot be read is no failure (the activity marks it).
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "1 minute", maximumAttempts: 10 },
});

/** Dimensions and thumbnails of a new message's images. */
export async function attachmentAnalysisWorkflow(messageId: number): Promise<{ analyzed: number }> {
  return analyzeMessageImages(messageId);
}
