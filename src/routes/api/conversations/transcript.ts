import { z } from "zod";
import { CouldNotProcess } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { headOk } from "../../../http/headOk";
import { MAX_LENGTH } from "../../../http/limits";
import { accountResourceParams, email } from "../../../http/schemas";
import { findConversation, usersOnly } from "../../../policies/conversations";
import { requestTranscript } from "../../../conversations/transcript";

const transcriptBody = z.object({ email: z.string().max(MAX_LENGTH.string).optional() });

/** conversations#transcript: e-mails the conversation to an address, in the background. */
export function registerTranscriptRoute(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/accounts/:account_id/conversations/:id/transcript",
      summary: "E-mail the conversation's transcript to `email` (sent by a workflow, retried until the mail server takes it)",
      params: accountResourceParams,
      body: transcriptBody,
      middleware: [usersOnly],
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      if (!body.email?.trim()) throw CouldNotProcess("email param missing");
      const address = email().safeParse(body.email);
      if (!address.success) throw CouldNotProcess("Invalid email");
      await requestTranscript(ctx.deps, conversation, address.data);
      headOk(ctx);
    },
  );
}
