import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { avatarUpload, idOrAbsent, jsonObject, optionalHttpUrl, optionalOneOf, railsBoolean, wrappedUnder } from "../../../http/schemas";
import { contactResponse } from "../../../schemas/contact";

const contactFields = {
  name: z.string().trim().max(255),
  email: z.string().trim().max(255).nullable(),
  phone_number: z.string().trim().max(255).nullable(),
  identifier: z.string().trim().max(255).nullable(),
  blocked: railsBoolean(),
  avatar_url: optionalHttpUrl(),
  additional_attributes: jsonObject(),
  custom_attributes: jsonObject(),
  /** An image file, in a multipart body. */
  avatar: avatarUpload(),
};

export const contactCreate = z
  .preprocess(wrappedUnder("contact"), z.object({ ...contactFields, inbox_id: idOrAbsent(), source_id: z.string().trim().max(255) }).partial())
  .openapi("ContactCreate");

export const contactUpdate = z.preprocess(wrappedUnder("contact"), z.object(contactFields).partial()).openapi("ContactUpdate");

export const removeCustomAttributesBody = z.object({ custom_attributes: z.array(z.string().max(MAX_LENGTH.string)) }).openapi("ContactRemoveCustomAttributes");

/** Chatwoot's Sift sorts (Contact's sort_on): a name, descending with a leading "-". */
export const CONTACT_SORTS = ["name", "email", "phone_number", "last_activity_at", "created_at", "company", "city", "country"] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/** `labels[]=a&labels[]=b` (Rails' array form), `labels=a` or repeated `labels`: contacts with any of them. */
const labelsParam = z.union([z.string().max(255), z.array(z.string().max(255)).max(100)]).transform((v) => (Array.isArray(v) ? v : [v]));

/**
 * `page` is kept as sent (Chatwoot echoes it back in meta.current_page) and read as pageNumber does.
 * An unknown sort or include_contact_inboxes is ignored, as Chatwoot's Sift and finder do.
 */
const listFields = {
  page: z.string().max(20).optional(),
  include_contact_inboxes: optionalOneOf(["true", "false"]),
  sort: optionalOneOf([...CONTACT_SORTS, ...CONTACT_SORTS.map((s) => `-${s}` as const)] as [ContactSort, ...string[]]),
};

export const contactListQuery = z.object({ ...listFields, labels: labelsParam.optional() });
export const contactFilterQuery = z.object(listFields);
export const contactSearchQuery = z.object({ ...listFields, q: z.string().optional() });

const currentPage = z.union([z.number(), z.string()]).describe("the page param as sent, 1 when absent");

export const contactListEnvelope = z
  .object({ meta: z.object({ count: z.number(), current_page: currentPage }), payload: z.array(contactResponse) })
  .openapi("ContactList");

export const contactSearchEnvelope = z
  .object({ meta: z.object({ count: z.number(), current_page: currentPage, has_more: z.boolean() }), payload: z.array(contactResponse) })
  .openapi("ContactSearch");

export const contactEnvelope = z.object({ payload: contactResponse }).openapi("ContactEnvelope");

export const contactCreateEnvelope = z
  .object({
    payload: z.object({
      contact: contactResponse,
      contact_inbox: z.object({ inbox: jsonObject().nullable(), source_id: z.string().nullable() }),
    }),
  })
  .openapi("ContactCreated");

export const contactableInboxesEnvelope = z
  .object({ payload: z.array(z.object({ source_id: z.string(), inbox: jsonObject() })) })
  .openapi("ContactableInboxes");
