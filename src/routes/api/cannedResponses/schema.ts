import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { wrappedUnder } from "../../../http/schemas";

const fields = {
  short_code: z.string().trim().max(255),
  content: z.string().max(MAX_LENGTH.text),
};

/** Chatwoot's canned_response_params, under `canned_response` or bare; presence is checked by the service in Rails' words. */
export const cannedResponseBody = z.preprocess(wrappedUnder("canned_response"), z.object(fields).partial()).openapi("CannedResponseInput");
export type CannedResponseInput = z.output<typeof cannedResponseBody>;

export const cannedResponseQuery = z.object({ search: z.string().max(255).optional() });

export const cannedResponseResponse = z
  .object({ id: z.number(), account_id: z.number(), short_code: z.string(), content: z.string(), created_at: z.string(), updated_at: z.string() })
  .openapi("CannedResponse");
