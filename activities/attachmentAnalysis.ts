import type { AppDeps } from "../src/deps";
import { analyzeMessageImages } from "../src/services/attachmentAnalysis";

export function createAttachmentAnalysisActivities({ knex }: AppDeps) {
  return {
    analyzeMessageImages: (messageId: number) => analyzeMessageImages(knex, messageId),
  };
}
