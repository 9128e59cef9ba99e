import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { id, wrappedUnder } from "../../../http/schemas";
import { agentResponse } from "../../../schemas/agent";

export const contactParams = z.object({ account_id: id(), contact_id: id() });
export const noteParams = z.object({ account_id: id(), contact_id: id(), id: id() });

/** Chatwoot's `note: {content}`, also accepted bare; presence is checked as Rails validates it. */
export const noteBody = z.preprocess(wrappedUnder("note"), z.object({ content: z.string().max(MAX_LENGTH.text).optional() })).openapi("ContactNoteInput");

export const noteResponse = z
  .object({
    id: z.number(),
    content: z.string(),
    account_id: z.null().describe("null, as Chatwoot's note partial renders it"),
    contact_id: z.null().describe("null, as Chatwoot's note partial renders it"),
    user: agentResponse.optional(),
    created_at: z.number(),
    updated_at: z.number(),
  })
  .openapi("ContactNote");
