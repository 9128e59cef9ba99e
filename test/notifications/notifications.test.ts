import test from "ava";
import { eventually } from "../support/eventually";
import { expectOk, useHarness } from "../support/harness";
import { openConversation, postMessage, realtimeWorld, subscribeAgent, type RealtimeWorld } from "../realtime/world";

const h = useHarness(test, { relay: { sweepIntervalMs: 500 }, realtime: true });

const api = (world: RealtimeWorld) => `/api/v1/accounts/${world.account.id}`;

function notificationsOf(world: RealtimeWorld, token: string, query = "") {
  return expectOk(h.request("GET", `${api(world)}/notifications${query}`, { token }), "notifications");
}

async function assign(world: RealtimeWorld, displayId: number, userId: number) {
  await expectOk(
    h.request("POST", `${api(world)}/conversations/${displayId}/assignments`, { token: world.account.admin.token, body: { assignee_id: userId } }),
    "assign",
  );
}

async function conversationId(world: RealtimeWorld, displayId: number): Promise<number> {
  return Number((await h.knex("conversations").where({ account_id: world.account.id, display_id: displayId }).first("id")).id);
}

test("an assignment notifies the assignee, listed in Chatwoot's shape and pushed live as notification.created", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId } = await openConversation(h, world, world.ownInbox.id);
  const live = await subscribeAgent(h, world.account.id, world.account.agent.id);
  t.teardown(() => live.close());
  await assign(world, displayId, world.account.agent.id);

  const pushed = await live.next("notification.created");
  t.like(pushed.data, {
    account_id: world.account.id,
    unread_count: 1,
    count: 1,
    notification: {
      notification_type: "conversation_assignment",
      primary_actor_type: "Conversation",
      primary_actor_id: await conversationId(world, displayId),
      primary_actor: { id: displayId, inbox_id: world.ownInbox.id },
      push_message_title: `A conversation (#${displayId}) has been assigned to you`,
      read_at: null,
      user: { id: world.account.agent.id, type: "user" },
    },
  });
  t.false("pubsub_token" in pushed.data);

  const list = await notificationsOf(world, world.account.agent.token);
  t.deepEqual(list.data.meta, { unread_count: 1, count: 1, current_page: 1 });
  t.is(list.data.payload[0].id, pushed.data.notification.id);
  t.is(typeof list.data.payload[0].created_at, "number");
  t.is((await h.request("GET", `${api(world)}/notifications/unread_count`, { token: world.account.agent.token })).body, 1);
  t.deepEqual((await notificationsOf(world, world.account.admin.token)).data.payload, [], "only the assignee is notified");
});

test("a private note's mentions notify the mentioned; a message notifies the assignee, never its sender", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId } = await openConversation(h, world, world.ownInbox.id);
  await assign(world, displayId, world.account.agent.id);
  await eventually(
    () => notificationsOf(world, world.account.agent.token),
    (l) => l.data.payload.length === 1,
    "assignment",
  );

  const note = await postMessage(h, world, displayId, { content: "@Agent Person please look at this refund", private: true });
  const mentions = await eventually(
    () => notificationsOf(world, world.account.agent.token),
    (l) => l.data.payload.some((n: { notification_type: string }) => n.notification_type === "conversation_mention"),
    "mention",
  );
  const mention = mentions.data.payload.find((n: { notification_type: string }) => n.notification_type === "conversation_mention");
  t.like(mention, { push_message_title: `[#${displayId}] @Agent Person please look at this refund`, secondary_actor: { id: note.id, private: true } });
  t.false(
    mentions.data.payload.some((n: { notification_type: string }) => n.notification_type === "assigned_conversation_new_message"),
    "mentioned, so not notified twice for the same note",
  );

  await postMessage(
    h,
    world,
    displayId,
    { content: "[@Admin Person](mention://user/" + world.account.admin.id + "/Admin%20Person) your call", private: true },
    world.account.agent.token,
  );
  const adminList = await eventually(
    () => notificationsOf(world, world.account.admin.token),
    (l) => l.data.payload.length === 1,
    "admin mention",
  );
  t.like(adminList.data.payload[0], { notification_type: "conversation_mention", push_message_title: `[#${displayId}] @Admin Person your call` });

  const reply = await postMessage(h, world, displayId, { content: "We refunded you" });
  const after = await eventually(
    () => notificationsOf(world, world.account.agent.token),
    (l) => l.data.payload.some((n: { secondary_actor: { id: number } | null }) => n.secondary_actor?.id === reply.id),
    "new message",
  );
  t.is(
    after.data.payload.find((n: { secondary_actor: { id: number } | null }) => n.secondary_actor?.id === reply.id).notification_type,
    "assigned_conversation_new_message",
  );
  const own = await postMessage(h, world, displayId, { content: "my own reply" }, world.account.agent.token);
  await postMessage(h, world, displayId, { content: "marker" });
  await eventually(
    () => notificationsOf(world, world.account.agent.token),
    (l) => l.data.meta.count === 4,
    "marker",
  );
  t.false(
    (await notificationsOf(world, world.account.agent.token)).data.payload.some(
      (n: { secondary_actor: { id: number } | null }) => n.secondary_actor?.id === own.id,
    ),
  );
  const unrelated = await h
    .knex("notifications")
    .where({ account_id: world.account.id })
    .whereNot("user_id", world.account.agent.id)
    .whereNot("user_id", world.account.admin.id);
  t.deepEqual(unrelated, []);
});

test("read, unread, snooze, delete, read_all and destroy_all; another user's notification is a 404", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId } = await openConversation(h, world, world.ownInbox.id);
  await assign(world, displayId, world.account.agent.id);
  for (const content of ["one", "two", "three"]) await postMessage(h, world, displayId, { content });
  const list = await eventually(
    () => notificationsOf(world, world.account.agent.token),
    (l) => l.data.meta.count === 4,
    "four",
  );
  const [first, second, third] = list.data.payload as { id: number }[];
  const token = world.account.agent.token;
  const base = `${api(world)}/notifications`;

  const read = await h.request("PATCH", `${base}/${first!.id}`, { token });
  t.is(read.status, 200);
  t.like(read.body, { id: first!.id, user_id: world.account.agent.id, notification_type: "assigned_conversation_new_message" });
  t.truthy(read.body.read_at);
  t.is((await notificationsOf(world, token)).data.meta.count, 3, "read ones are left out");
  t.is((await notificationsOf(world, token, "?includes[]=read")).data.meta.count, 4);
  t.is((await h.request("POST", `${base}/${first!.id}/unread`, { token })).body.read_at, null);

  const until = new Date(Date.now() + 3_600_000).toISOString();
  const snoozed = await h.request("POST", `${base}/${second!.id}/snooze`, { token, body: { snoozed_until: until } });
  t.is(snoozed.body.snoozed_until, until);
  t.is((await h.request("GET", `${base}/unread_count`, { token })).body, 3);
  t.is((await notificationsOf(world, token, "?includes[]=snoozed&includes[]=read")).data.meta.count, 4);
  t.is((await h.request("POST", `${base}/${second!.id}/snooze`, { token, body: { snoozed_until: "never" } })).status, 422);

  t.is((await h.request("PATCH", `${base}/${first!.id}`, { token: world.account.admin.token })).status, 404, "not the admin's");
  t.is((await h.request("DELETE", `${base}/${third!.id}`, { token })).status, 200);
  t.is((await h.request("DELETE", `${base}/${third!.id}`, { token })).status, 404);

  t.is((await h.request("POST", `${base}/read_all`, { token })).status, 200);
  t.is((await h.request("GET", `${base}/unread_count`, { token })).body, 0);
  t.is((await h.request("POST", `${base}/destroy_all`, { token, body: { type: "read" } })).status, 200);
  t.is((await notificationsOf(world, token, "?includes[]=read&includes[]=snoozed")).data.meta.count, 0);
});

test("notification settings: Chatwoot's defaults on first read (once under 50 racing reads), then the chosen flags", async (t) => {
  const world = await realtimeWorld(h);
  const path = `${api(world)}/notification_settings`;
  const token = world.account.agent.token;
  const racing = await Promise.all(Array.from({ length: 50 }, () => h.request("GET", path, { token })));
  t.true(racing.every((r) => r.status === 200));
  t.is((await h.knex("notification_settings").where({ account_id: world.account.id, user_id: world.account.agent.id })).length, 1);
  t.like(racing[0]!.body, {
    user_id: world.account.agent.id,
    account_id: world.account.id,
    selected_email_flags: ["email_conversation_assignment"],
    selected_push_flags: ["push_conversation_assignment"],
  });
  t.true(racing[0]!.body.all_push_flags.includes("push_conversation_mention"));
  const updated = await h.request("PATCH", path, {
    token,
    body: { notification_settings: { selected_email_flags: ["email_conversation_mention", "email_bogus"], selected_push_flags: [] } },
  });
  t.is(updated.status, 200);
  t.deepEqual([updated.body.selected_email_flags, updated.body.selected_push_flags], [["email_conversation_mention"], []]);
  t.deepEqual((await h.request("GET", path, { token })).body.selected_email_flags, ["email_conversation_mention"]);
});
