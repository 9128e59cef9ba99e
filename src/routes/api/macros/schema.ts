import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { idList, optionalOneOf, withinJsonLimits, wrappedUnder } from "../../../http/schemas";
import { agentResponse } from "../../../schemas/agent";
import { automationAction } from "../../../schemas/automationAction";
import { MACRO_VISIBILITIES } from "../../../models/Macro";
import { MAX_ITEMS_PER_RUN } from "../../../temporal/contracts";

const action = automationAction;

/** Create and update alike; presence and the action names are checked as Macro validates them. */
export const macroBody = z
  .preprocess(
    wrappedUnder("macro"),
    z
      .object({
        name: z.string().max(MAX_LENGTH.string).nullable(),
        visibility: optionalOneOf(MACRO_VISIBILITIES),
        actions: withinJsonLimits(z.array(action)).nullable(),
      })
      .partial(),
  )
  .openapi("MacroRequest");

export const macroExecuteBody = z.object({ conversation_ids: idList().pipe(z.array(z.number()).max(MAX_ITEMS_PER_RUN)) }).openapi("MacroExecuteRequest");

export const macroResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    visibility: z.enum(MACRO_VISIBILITIES),
    created_by: agentResponse.optional(),
    updated_by: agentResponse.optional(),
    account_id: z.number(),
    actions: z.array(action),
  })
  .openapi("Macro");

export const macroEnvelope = z.object({ payload: macroResponse }).openapi("MacroEnvelope");
export const macrosEnvelope = z.object({ payload: z.array(macroResponse) }).openapi("Macros");
