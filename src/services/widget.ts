import { randomInt } from "node:crypto";
import type { Knex } from "knex";
import { AccountSuspended, NotFound } from "../errors";
import { Account } from "../models/Account";
import { ChannelWebWidget } from "../models/ChannelWebWidget";
import { Contact } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { Inbox } from "../models/Inbox";
import { writeContactCreate } from "./contacts";
import type { WidgetTokenClaims } from "./widgetTokens";

/** The web widget a request names by its website_token, with its inbox and account. */
export interface WebWidgetScope {
  channel: ChannelWebWidget;
  inbox: Inbox;
  account: Account;
}

/** The widget's visitor: the contact behind a session token. */
export interface Visitor {
  contactInbox: ContactInbox;
  contact: Contact;
}

/**
 * Chatwoot's set_web_widget (find_by! → 404). An account whose deletion was requested is gone, as
 * everywhere in the API; a suspended one answers 401 as Chatwoot's account check does.
 */
export async function findWebWidget(db: Knex, websiteToken: string | undefined): Promise<WebWidgetScope> {
  const channel = websiteToken ? await ChannelWebWidget.query(db).findOne({ website_token: websiteToken }) : undefined;
  const inbox = channel && (await Inbox.query(db).findOne({ channel_type: "Channel::WebWidget", channel_id: channel.id }));
  const account = inbox && (await Account.findLive(inbox.account_id, db));
  if (!channel || !inbox || !account) throw NotFound();
  if (account.status === "suspended") throw AccountSuspended();
  return { channel, inbox, account };
}

/** Chatwoot's set_contact: the token's source_id looked up in this widget's inbox only. */
export async function findVisitor(db: Knex, { inbox }: WebWidgetScope, claims: WidgetTokenClaims | undefined): Promise<Visitor | undefined> {
  if (!claims) return undefined;
  const contactInbox = await ContactInbox.query(db).findOne({ inbox_id: inbox.id, source_id: claims.source_id });
  const contact = contactInbox && (await Contact.query(db).findById(contactInbox.contact_id));
  return contactInbox && contact ? { contactInbox, contact } : undefined;
}

const ADJECTIVES = [
  "autumn",
  "hidden",
  "bitter",
  "misty",
  "silent",
  "empty",
  "dry",
  "dark",
  "summer",
  "icy",
  "quiet",
  "white",
  "cool",
  "spring",
  "winter",
  "patient",
];
const NOUNS = ["waterfall", "river", "breeze", "moon", "rain", "wind", "sea", "morning", "snow", "lake", "sunset", "pine", "shadow", "leaf", "dawn", "glitter"];

/** A new visitor's name, in the shape of Chatwoot's Haikunator.haikunate(1000): "misty-river-417". */
function visitorName(): string {
  return `${ADJECTIVES[randomInt(ADJECTIVES.length)]}-${NOUNS[randomInt(NOUNS.length)]}-${randomInt(1000)}`;
}

/**
 * Channel::WebWidget#create_contact_inbox: a new contact (contact_created recorded as for any
 * other) and its contact inbox under a fresh UUID source_id, in one transaction.
 */
export async function createVisitor(db: Knex, { inbox, account }: WebWidgetScope, remoteIp: string): Promise<Visitor> {
  // Chatwoot keeps the visitor's address only for accounts with the ip_lookup feature.
  const additional_attributes = account.features.includes("ip_lookup") ? { created_at_ip: remoteIp } : {};
  return db.transaction(async (trx) => {
    const contact = await writeContactCreate(trx, account, { name: visitorName(), additional_attributes });
    return { contact, contactInbox: await ContactInbox.findOrCreate(trx, contact.id, inbox) };
  });
}
