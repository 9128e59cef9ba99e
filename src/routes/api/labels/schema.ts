import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { railsBoolean, wrappedUnder } from "../../../http/schemas";

/** Chatwoot's permitted label params, under `label` or bare; the title's own rules are checked by the service. */
const labelFields = {
  title: z.string().max(255),
  description: z.string().max(MAX_LENGTH.text).nullable(),
  color: z.string().trim().max(255),
  show_on_sidebar: railsBoolean().nullable(),
};

export const labelCreate = z.preprocess(wrappedUnder("label"), z.object(labelFields).partial()).openapi("LabelCreate");
export const labelUpdate = z.preprocess(wrappedUnder("label"), z.object(labelFields).partial()).openapi("LabelUpdate");
export type LabelInput = z.output<typeof labelCreate>;

export const labelResponse = z
  .object({ id: z.number(), title: z.string(), description: z.string().nullable(), color: z.string(), show_on_sidebar: z.boolean().nullable() })
  .openapi("Label");

export const labelListEnvelope = z.object({ payload: z.array(labelResponse) }).openapi("LabelList");

/** contacts/:id/labels: the titles to keep, replacing the contact's current ones. */
export const contactLabelsBody = z.object({ labels: z.array(z.string().max(255)) }).openapi("ContactLabels");
export const contactLabelsEnvelope = z.object({ payload: z.array(z.string()) }).openapi("ContactLabelList");
