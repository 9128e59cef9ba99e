import type { Knex } from "knex";
import { ValidationError, type AttributeError, fullMessage } from "../errors";
import { BaseModel } from "./BaseModel";

export type ContactType = "visitor" | "lead" | "customer";

/** Devise.email_regexp: something@something, no whitespace. */
export const EMAIL = /^[^@\s]+@[^@\s]+$/;
/** E.164: a plus, a non-zero digit, at most fifteen digits in all. */
export const E164 = /^\+[1-9]\d{1,14}$/;

/** The columns a request may write. */
export interface ContactAttributes {
  name?: string;
  email?: string | null;
  phone_number?: string | null;
  identifier?: string | null;
  blocked?: boolean;
  avatar_url?: string | null;
  avatar_key?: string | null;
  additional_attributes?: Record<string, unknown>;
  custom_attributes?: Record<string, unknown>;
}

/** Unique indexes of contacts and the attribute each guards, for races that slip past the checks. */
const UNIQUE_INDEXES: Record<string, string> = {
  contacts_account_email_unique: "email",
  contacts_account_phone_unique: "phone_number",
  contacts_account_identifier_unique: "identifier",
};

const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() ? value.trim() : null);

export class Contact extends BaseModel {
  static tableName = "contacts";
  static jsonAttributes = ["additional_attributes", "custom_attributes"];

  declare account_id: number;
  declare name: string;
  declare email: string | null;
  declare phone_number: string | null;
  declare identifier: string | null;
  declare blocked: boolean;
  declare avatar_url: string | null;
  /** The stored avatar image (an uploaded file or the fetched avatar_url), when there is one. */
  declare avatar_key: string | null;
  /** The avatar_url last fetched (successfully or not). */
  declare avatar_fetched_url: string | null;
  declare contact_type: ContactType;
  declare location: string | null;
  declare country_code: string | null;
  declare additional_attributes: Record<string, unknown>;
  declare custom_attributes: Record<string, unknown>;
  declare last_activity_at: Date | null;
  /** Label titles (Chatwoot tags contacts with acts_as_taggable). */
  declare labels: string[];

  static async findInAccount(accountId: number, id: number, db?: Knex): Promise<Contact | undefined> {
    return Contact.query(db).findOne({ id, account_id: accountId });
  }

  /**
   * Chatwoot's before_validation and before_save: email downcased, blanks as null, city and
   * country copied out of additional_attributes, and a visitor who leaves an email or phone
   * becomes a lead.
   */
  static normalise(attributes: ContactAttributes, current?: Contact): ContactAttributes & Partial<Pick<Contact, "location" | "country_code" | "contact_type">> {
    const email = blankToNull(attributes.email);
    const normalised: ReturnType<typeof Contact.normalise> = {
      ...attributes,
      ...(email !== undefined ? { email: email?.toLowerCase() ?? null } : {}),
      ...(attributes.phone_number !== undefined ? { phone_number: blankToNull(attributes.phone_number) } : {}),
      ...(attributes.identifier !== undefined ? { identifier: blankToNull(attributes.identifier) } : {}),
    };
    const additional = normalised.additional_attributes;
    if (additional) {
      if (typeof additional.city === "string") normalised.location = additional.city;
      if (typeof additional.country === "string") normalised.country_code = additional.country;
    }
    const reachable = normalised.email || normalised.phone_number || current?.email || current?.phone_number;
    if ((current?.contact_type ?? "visitor") === "visitor" && reachable) normalised.contact_type = "lead";
    return normalised;
  }

  /** Format and per-account uniqueness of email, phone number and identifier, every failure at once. */
  static async validate(db: Knex, accountId: number, attributes: ContactAttributes, exceptId?: number): Promise<void> {
    const errors: AttributeError[] = [];
    const add = (attribute: string, text: string) => errors.push({ attribute, message: fullMessage(attribute, text) });
    const others = () =>
      Contact.query(db)
        .where("account_id", accountId)
        .whereNot("id", exceptId ?? 0);

    if (attributes.email) {
      if (!EMAIL.test(attributes.email)) add("email", "Invalid email");
      else if (await others().whereRaw("lower(email) = ?", [attributes.email.toLowerCase()]).first()) add("email", "has already been taken");
    }
    if (attributes.phone_number) {
      if (!E164.test(attributes.phone_number)) add("phone_number", "should be in e164 format");
      else if (await others().where("phone_number", attributes.phone_number).first()) add("phone_number", "has already been taken");
    }
    if (attributes.identifier && (await others().where("identifier", attributes.identifier).first())) add("identifier", "has already been taken");
    if (errors.length) throw new ValidationError(errors);
  }

  /** A unique-index violation (two requests racing past validate) as the 422 validate would have given. */
  static uniquenessError(err: unknown): ValidationError | undefined {
    const constraint = (err as { constraint?: string; code?: string }).code === "23505" ? (err as { constraint?: string }).constraint : undefined;
    const attribute = constraint ? UNIQUE_INDEXES[constraint] : undefined;
    return attribute ? ValidationError.of(attribute, "has already been taken") : undefined;
  }

  /**
   * Removes the contact with its conversations and their messages; contact inboxes and notes go
   * with it through their foreign keys (Chatwoot's dependent destroys).
   */
  async destroyWithDependents(trx: Knex.Transaction): Promise<void> {
    const conversations = trx("conversations").select("id").where("contact_id", this.id);
    await trx("messages").whereIn("conversation_id", conversations).delete();
    await trx("conversations").where("contact_id", this.id).delete();
    await Contact.query(trx).deleteById(this.id);
  }
}
