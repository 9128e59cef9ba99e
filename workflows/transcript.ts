import { proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { TranscriptInput } from "../src/temporal/contracts";

// A mail server down or answering "try later" is retried for about a day; a refusal (5xx) is final.
const { sendTranscript } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "10 seconds", backoffCoefficient: 2, maximumInterval: "1 hour", maximumAttempts: 30, nonRetryableErrorTypes: ["MailRefused"] },
});

/** Mails a conversation's transcript to the address asked for (Chatwoot's conversation_transcript mail). */
export async function transcriptWorkflow(input: TranscriptInput): Promise<{ sent: boolean }> {
  return sendTranscript(input);
}
