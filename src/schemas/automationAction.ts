import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { withinJsonLimits } from "../http/schemas";

/** An automation action as rules and macros hold it: loose, as Chatwoot keeps whatever else a client puts in one. */
export const automationAction = z
  .looseObject({ action_name: z.string().max(MAX_LENGTH.string), action_params: withinJsonLimits(z.array(z.unknown())).optional() })
  .openapi("AutomationRuleAction");
