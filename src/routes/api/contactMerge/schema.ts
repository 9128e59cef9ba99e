import { z } from "zod";
import { id } from "../../../http/schemas";

export const contactMergeBody = z.object({ base_contact_id: id(), mergee_contact_id: id() }).openapi("ContactMergeRequest");
