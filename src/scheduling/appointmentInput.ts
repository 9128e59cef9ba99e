/**
 * What a booking request names, resolved as it will be saved: the records it links (each one of
 * the account's), its interval (times without an offset read in the resource's zone) and its
 * client fields (falling back to the contact).
 */
import type { Knex } from "knex";
import { AccountUser } from "../models/AccountUser";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import type { Appointment } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { Service } from "../models/scheduling/Service";
import type { AppointmentInput } from "./appointments";
import { MAX_DURATION_MINUTES, MIN_DURATION_MINUTES } from "./constants";
import { invalidAttribute, notFound, SchedulingError } from "./errors";
import { normalizeIdentifier } from "./iin";
import { resolveTime } from "./wallTime";

const MINUTE_MS = 60_000;

export const blankToNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

async function mustFind<T>(row: PromiseLike<T | undefined>, what: string): Promise<T> {
  const found = await row;
  if (!found) throw notFound(what);
  return found;
}

/** A date the contact's custom attributes hold, if it is one. */
const attributeDate = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);
const attributeString = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

export interface Related {
  resource: Resource;
  contact: Contact | null;
  service: Service | null;
  conversation: Conversation | null;
  inbox: Inbox | null;
}

/** The records the booking names, each one of the account's (404 otherwise); absent ones stay as stored. */
export async function loadRelated(trx: Knex.Transaction, accountId: number, existing: Appointment | undefined, input: AppointmentInput): Promise<Related> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Objection model class; each call site's loader types the row
  const ofAccount = <M extends { query(db: Knex): any }>(model: M, id: number) => model.query(trx).findOne({ account_id: accountId, id });
  const optional = async <T>(
    key: keyof AppointmentInput,
    stored: number | null | undefined,
    load: (id: number) => PromiseLike<T | undefined>,
    what: string,
  ) => {
    const id = key in input ? (input[key] as number | null) : stored;
    return id ? mustFind(load(id), what) : null;
  };
  const resourceId = input.resource_id ?? existing!.resource_id;
  const resource = await mustFind<Resource>(ofAccount(Resource, resourceId), "Resource");
  const contact = await optional<Contact>("contact_id", existing?.contact_id, (id) => ofAccount(Contact, id), "Contact");
  const service = await optional<Service>("service_id", existing?.service_id, (id) => ofAccount(Service, id), "Service");
  const conversation =
    "conversation_id" in input
      ? input.conversation_id
        ? await mustFind(Conversation.findByDisplayId(accountId, input.conversation_id, trx), "Conversation")
        : null
      : existing?.conversation_id
        ? ((await Conversation.query(trx).findById(existing.conversation_id)) ?? null)
        : null;
  const inbox = input.inbox_id ? await mustFind(Inbox.findInAccount(accountId, input.inbox_id, trx), "Inbox") : null;
  if (input.created_by_id && !(await AccountUser.query(trx).findOne({ account_id: accountId, user_id: input.created_by_id }))) throw notFound("User");
  return { resource, contact, service, conversation, inbox };
}

/** The booked interval: ends_at, else the start plus the requested, the service's or the resource's length. */
export function timesOf(existing: Appointment | undefined, input: AppointmentInput, related: Related) {
  const zone = related.resource.timezone;
  const startsAt = input.starts_at ? resolveTime(input.starts_at, zone) : existing!.starts_at;
  let endsAt: Date;
  if (input.ends_at) endsAt = resolveTime(input.ends_at, zone);
  else if (input.duration_min) endsAt = new Date(startsAt.getTime() + input.duration_min * MINUTE_MS);
  else if (existing) endsAt = new Date(startsAt.getTime() + (existing.ends_at.getTime() - existing.starts_at.getTime()));
  else endsAt = new Date(startsAt.getTime() + (related.service?.duration_min ?? related.resource.slot_duration_min) * MINUTE_MS);
  if (endsAt <= startsAt) throw new SchedulingError(422, "VALIDATION_ERROR", "ends_at must be after starts_at", { ends_at: ["must be after starts_at"] });
  // An explicit duration is kept as given, as the fork does; otherwise it is the interval's, at least 5.
  const durationMin = input.duration_min ?? Math.max(Math.round((endsAt.getTime() - startsAt.getTime()) / MINUTE_MS), MIN_DURATION_MINUTES);
  if (durationMin > MAX_DURATION_MINUTES) throw invalidAttribute("duration_min", `must be less than or equal to ${MAX_DURATION_MINUTES}`);
  return { startsAt, endsAt, durationMin };
}

/** The client fields: the request's, else what is stored, else the contact's (reference §6). */
export function clientOf(existing: Appointment | undefined, input: AppointmentInput, contact: Contact | null) {
  const attributes = contact?.custom_attributes ?? {};
  const pick = <T>(key: keyof AppointmentInput, given: () => T, fallback: () => T) => (key in input ? given() : fallback());
  const clientName = pick(
    "client_name",
    () => blankToNull(input.client_name),
    () => existing?.client_name || blankToNull(contact?.name) || blankToNull(contact?.email) || blankToNull(contact?.phone_number),
  );
  if (!clientName) throw invalidAttribute("client_name", "is required");
  const identifier = pick(
    "client_identifier",
    () => blankToNull(input.client_identifier),
    () => existing?.client_identifier ?? contact?.identifier ?? attributeString(attributes.iin),
  );
  return {
    client_name: clientName,
    client_phone: pick(
      "client_phone",
      () => blankToNull(input.client_phone),
      () => existing?.client_phone ?? contact?.phone_number ?? null,
    ),
    client_identifier: identifier === null ? null : normalizeIdentifier(identifier),
    client_birth_date: pick(
      "client_birth_date",
      () => input.client_birth_date ?? null,
      () => existing?.client_birth_date ?? attributeDate(attributes.birth_date),
    ),
    client_gender: pick(
      "client_gender",
      () => blankToNull(input.client_gender),
      () => existing?.client_gender ?? attributeString(attributes.gender),
    ),
    company_id: pick(
      "company_id",
      () => input.company_id ?? null,
      () => existing?.company_id ?? (typeof attributes.company_id === "number" ? attributes.company_id : null),
    ),
  };
}
