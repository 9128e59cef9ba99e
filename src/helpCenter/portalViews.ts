import type { Knex } from "knex";
import { Inbox } from "../models/Inbox";
import type { Portal } from "../models/Portal";
import { portalCounts } from "./portals";
import { presentPortal } from "./presenters";

/** Portals as the account API renders them, their counts and live chat inboxes read once for all. */
export async function presentPortals(db: Knex, portals: Portal[], options: { locale?: string; userId?: number } = {}) {
  const counts = await portalCounts(
    db,
    portals.map((p) => p.id),
  );
  const inboxIds = portals.flatMap((p) => (p.inbox_id ? [p.inbox_id] : []));
  const inboxes = new Map((inboxIds.length ? await Inbox.query(db).findByIds(inboxIds) : []).map((inbox) => [inbox.id, inbox]));
  return portals.map((portal) =>
    presentPortal(portal, { ...options, counts: counts.get(portal.id)!, inbox: portal.inbox_id ? inboxes.get(portal.inbox_id) : undefined }),
  );
}

export async function presentOnePortal(db: Knex, portal: Portal, options: { locale?: string; userId?: number } = {}) {
  const [json] = await presentPortals(db, [portal], options);
  return json!;
}
