import { randomUUID } from "node:crypto";
import test from "ava";
import { connectedContactIds, DEFAULT_PRESENCE, PresenceRows } from "../../src/realtime/presence";
import { useHarness } from "../support/harness";
import { openConversation, realtimeWorld } from "./world";

const h = useHarness(test);

test("a heartbeat that read a subscription before it left does not bring it back online", async (t) => {
  const world = await realtimeWorld(h);
  const { visitorToken } = await openConversation(h, world, world.ownInbox.id);
  const rows = new PresenceRows(h.knex, DEFAULT_PRESENCE, randomUUID(), () => 0);
  const visitor = { kind: "contact", token: visitorToken, accountId: world.account.id, contactId: world.contact.id, inboxId: world.ownInbox.id } as const;
  const online = async () => [...(await connectedContactIds(h.knex, world.account.id, [world.contact.id]))];

  for (const resumable of [true, false]) {
    const id = await rows.join(visitor);
    t.deepEqual(await online(), [world.contact.id]);
    // The heartbeat took its ids, then the visitor left before its update ran.
    await rows.leave(id, { resumable });
    await rows.heartbeat([id]);
    t.deepEqual(await online(), [], resumable ? "a closed connection stays offline" : "an unsubscribed one stays offline");
  }
});
