import type { Knex } from "knex";
import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { definedOnly } from "../lib/objects";
import { Inbox } from "../models/Inbox";
import { Portal, type PortalConfig } from "../models/Portal";
import type { PortalInput } from "../routes/api/helpCenter/schema";
import type { PortalCounts } from "./presenters";

/** Slugs name the portal in its public address, so they stay URL-safe (stricter than Chatwoot). */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export async function findPortal(accountId: number, slug: string, db?: Knex): Promise<Portal> {
  const portal = await Portal.query(db).findOne({ account_id: accountId, slug });
  if (!portal) throw NotFound();
  return portal;
}

export async function listPortals(accountId: number): Promise<Portal[]> {
  return Portal.query().where("account_id", accountId).orderBy("id");
}

/** The default locale is always among the allowed ones (first when it had to be added). */
function mergedConfig(current: PortalConfig | undefined, change: PortalInput["config"]): PortalConfig {
  const default_locale = change?.default_locale ?? current?.default_locale ?? "en";
  const allowed = [...new Set(change?.allowed_locales ?? current?.allowed_locales ?? [default_locale])];
  return { default_locale, allowed_locales: allowed.includes(default_locale) ? allowed : [default_locale, ...allowed] };
}

async function liveChatInbox(accountId: number, inboxId: number | null | undefined): Promise<number | null | undefined> {
  if (inboxId === undefined || inboxId === null) return inboxId;
  const inbox = await Inbox.query().findOne({ account_id: accountId, id: inboxId });
  if (!inbox) throw ValidationError.of("inbox", "must exist");
  // As Chatwoot, only a web widget inbox becomes the portal's live chat.
  return inbox.channel_type === "Channel::WebWidget" ? inbox.id : undefined;
}

function validate(attributes: { name?: string; slug?: string }): void {
  const errors: AttributeError[] = [];
  if (!attributes.name?.trim()) errors.push({ attribute: "name", message: fullMessage("name", "can't be blank") });
  if (!attributes.slug?.trim()) errors.push({ attribute: "slug", message: fullMessage("slug", "can't be blank") });
  else if (!SLUG.test(attributes.slug)) errors.push({ attribute: "slug", message: fullMessage("slug", "is invalid") });
  if (errors.length) throw new ValidationError(errors);
}

/** Taken slugs and custom domains are refused by the unique indexes, which the error handler words as Rails would. */
export async function createPortal(accountId: number, input: PortalInput): Promise<Portal> {
  const { inbox_id, config, ...fields } = input;
  validate(fields);
  return Portal.query()
    .insert({
      ...definedOnly(fields),
      account_id: accountId,
      config: mergedConfig(undefined, config),
      inbox_id: (await liveChatInbox(accountId, inbox_id)) ?? null,
    })
    .returning("*");
}

export async function updatePortal(current: Portal, input: PortalInput): Promise<Portal> {
  const { inbox_id, config, ...fields } = input;
  const changes = definedOnly(fields);
  validate({ name: current.name, slug: current.slug, ...changes });
  const inbox = await liveChatInbox(current.account_id, inbox_id);
  return Portal.transaction(async (trx) => {
    const locked = await Portal.query(trx).findById(current.id).forUpdate();
    if (!locked) throw NotFound();
    return Portal.query(trx).patchAndFetchById(current.id, {
      ...changes,
      ...(config ? { config: mergedConfig(locked.config, config) } : {}),
      ...(inbox !== undefined ? { inbox_id: inbox } : {}),
    });
  });
}

export async function destroyPortal(portal: Portal): Promise<void> {
  await Portal.query().deleteById(portal.id);
}

export async function archivePortal(portal: Portal): Promise<void> {
  await Portal.query().patch({ archived: true }).where("id", portal.id);
}

/** Article and category counts of each portal, for the portal's meta and locale list. */
export async function portalCounts(db: Knex, portalIds: number[]): Promise<Map<number, PortalCounts>> {
  const articles: { portal_id: string; locale: string; status: string; author_id: string | null; count: string }[] = await db("articles")
    .whereIn("portal_id", portalIds)
    .groupBy("portal_id", "locale", "status", "author_id")
    .select("portal_id", "locale", "status", "author_id")
    .count("* as count");
  const categories: { portal_id: string; locale: string; count: string }[] = await db("categories")
    .whereIn("portal_id", portalIds)
    .groupBy("portal_id", "locale")
    .select("portal_id", "locale")
    .count("* as count");
  const counts = new Map<number, PortalCounts>(portalIds.map((id) => [id, { articles: [], categories: [] }]));
  for (const row of articles)
    counts
      .get(Number(row.portal_id))
      ?.articles.push({ locale: row.locale, status: row.status, author_id: row.author_id === null ? null : Number(row.author_id), count: Number(row.count) });
  for (const row of categories) counts.get(Number(row.portal_id))?.categories.push({ locale: row.locale, count: Number(row.count) });
  return counts;
}
