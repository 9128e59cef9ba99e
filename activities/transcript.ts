import type { AppDeps } from "../src/deps";
import { sendTranscript } from "../src/conversations/transcript";
import type { TranscriptInput } from "../src/temporal/contracts";

export function createTranscriptActivities(deps: AppDeps) {
  return { sendTranscript: (input: TranscriptInput) => sendTranscript(deps, input) };
}
