import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { idList, optionalId } from "../../../http/schemas";
import { CONVERSATION_STATUSES } from "../../../models/Conversation";
import { timeInput } from "../../../schemas/time";
import { MAX_ITEMS_PER_RUN } from "../../../temporal/contracts";

const labelList = z.array(z.string().max(MAX_LENGTH.string)).max(100);
const blankAsNull = (value: unknown) => (value === "" ? null : value);

/**
 * Chatwoot's bulk_actions params. `type` is checked by the route (anything but Conversation or
 * Contact is `{"success": false}`); an absent field is left alone, a null assignee or team clears it.
 */
export const bulkActionBody = z
  .object({
    type: z.string().max(MAX_LENGTH.string).optional(),
    ids: idList().pipe(z.array(z.number()).max(MAX_ITEMS_PER_RUN)).optional(),
    fields: z
      .object({
        status: z.preprocess(blankAsNull, z.enum(CONVERSATION_STATUSES).nullable()).optional(),
        assignee_id: optionalId().optional(),
        team_id: optionalId().optional(),
      })
      .optional(),
    labels: z.object({ add: labelList.optional(), remove: labelList.optional() }).optional(),
    snoozed_until: timeInput.optional(),
    action_name: z.string().max(MAX_LENGTH.string).optional(),
  })
  .openapi("BulkActionRequest");
