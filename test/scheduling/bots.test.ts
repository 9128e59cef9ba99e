import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { liveClinic } from "./bookingSupport";
import { inboxBot } from "./offerSupport";

const h = useHarness(test);

const BOTS_DENIED = { error: "Access to this endpoint is not authorized for bots" };
const REFUSED = { error: "You are not authorized to do this action" };
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** A clinic whose API inbox has a bot, a conversation of that inbox, and one of another inbox the bot is not connected to. */
async function botWorld() {
  const c = await liveClinic(h);
  const bot = await inboxBot(h, c, c.inbox.id);
  const api = accountApi(h, c.account);
  const ours = await expectOk(api.post("/conversations", { inbox_id: c.inbox.id, contact_id: c.contact.id }), "conversation of the bot's inbox");
  const otherInbox = await createInbox(h, c.account, { name: "Elsewhere" });
  const { contact: stranger } = await createContact(h, c.account, { inbox_id: otherInbox.id, name: "Other Person" });
  const theirs = await expectOk(api.post("/conversations", { inbox_id: otherInbox.id, contact_id: stranger.id }), "conversation of another inbox");
  const call = (method: string, path: string, body?: unknown) =>
    h.request(method, `/api/v1/accounts/${c.account.id}/scheduling${path}`, { token: bot.token, body });
  return { c, bot, ours, theirs, stranger, call };
}

test("an inbox bot reads the catalogue and availability, and books, moves and cancels for its conversation's contact", async (t) => {
  const { c, bot, ours, call } = await botWorld();
  t.is((await call("GET", "/services")).status, 200);
  t.is((await call("GET", `/services/${c.service.id}`)).status, 200);
  t.is((await call("GET", "/resources")).body.payload[0].id, c.resource.id);
  t.is((await call("GET", `/resources/${c.resource.id}`)).status, 200);
  const free = await call("GET", `/availability?service_id=${c.service.id}&limit=2`);
  t.is(free.status, 200);
  t.is(free.body.payload.length, 2);

  const booked = await call("POST", "/appointments", {
    resource_id: c.resource.id,
    service_id: c.service.id,
    conversation_id: ours.id,
    starts_at: inMinutes(120),
  });
  t.is(booked.status, 201, JSON.stringify(booked.body));
  t.like(booked.body.payload, { contact_id: c.contact.id, conversation_id: ours.id, status: "scheduled", service_amount: 10_000 });
  const id = booked.body.payload.id;

  const moved = await call("PATCH", `/appointments/${id}`, { starts_at: inMinutes(180) });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.true(new Date(moved.body.payload.starts_at).getTime() - new Date(booked.body.payload.starts_at).getTime() >= 59 * 60_000, "moved an hour on");
  const cancelled = await call("POST", `/appointments/${id}/cancel`, { cancellation_reason: "client asked" });
  t.like(cancelled.body.payload, { status: "cancelled", cancellation_reason: "client asked" });

  const logs = await h.knex("audit_logs").where({ account_id: c.account.id, auditable_type: "Scheduling::Appointment", auditable_id: id }).orderBy("id");
  t.deepEqual(
    logs.map((row) => [row.action, row.user_type, row.user_id, row.username]),
    [
      ["create", "AgentBot", bot.id, "Booking Bot"],
      ["update", "AgentBot", bot.id, "Booking Bot"],
      ["update", "AgentBot", bot.id, "Booking Bot"],
    ],
  );
  t.like(logs[2].audited_changes, { status: "cancelled", cancellation_reason: "client asked", conversation_id: ours.id });
  const shown = await accountApi(h, c.account).get("/audit_logs");
  t.true(shown.body.audit_logs.some((entry: any) => entry.auditable_type === "Scheduling::Appointment" && entry.user_type === "AgentBot"));
});

test("a bot is refused for another inbox's contact, another contact, without a conversation, and for finance and settings", async (t) => {
  const { c, ours, theirs, stranger, call } = await botWorld();
  const slot = { resource_id: c.resource.id, service_id: c.service.id, starts_at: inMinutes(240) };
  t.deepEqual((await call("POST", "/appointments", { ...slot, conversation_id: theirs.id })).body, REFUSED);
  t.is((await call("POST", "/appointments", { ...slot, conversation_id: theirs.id })).status, 401);
  t.is((await call("POST", "/appointments", { ...slot, conversation_id: ours.id, contact_id: stranger.id })).status, 401);
  const without = await call("POST", "/appointments", slot);
  t.deepEqual([without.status, without.body.details], [422, { conversation_id: ["is required for an agent bot"] }]);
  t.is((await call("POST", "/appointments", { ...slot, conversation_id: ours.id, prepaid_amount: 5000, prepaid_payment_method: "cash" })).status, 401);

  // A user's booking for the other inbox's contact: the bot may neither move nor cancel it.
  const theirsBooked = await expectOk(
    h.request("POST", `/api/v1/accounts/${c.account.id}/scheduling/appointments`, {
      token: c.account.admin.token,
      body: { ...slot, contact_id: stranger.id, conversation_id: theirs.id },
    }),
    "user booking",
  );
  const theirId = theirsBooked.payload.id;
  t.is((await call("PATCH", `/appointments/${theirId}`, { starts_at: inMinutes(300) })).status, 401);
  t.is((await call("POST", `/appointments/${theirId}/cancel`, {})).status, 401);
  t.like((await accountApi(h, c.account).get(`/scheduling/appointments/${theirId}`)).body.payload, { status: "scheduled" });

  const ownBooked = await call("POST", "/appointments", { ...slot, starts_at: inMinutes(360), conversation_id: ours.id });
  t.is(ownBooked.status, 201);
  const own = ownBooked.body.payload.id;
  t.is((await call("PATCH", `/appointments/${own}`, { conversation_id: theirs.id })).status, 401, "it cannot relink its booking elsewhere");
  t.is((await call("PATCH", `/appointments/${own}`, { settlement_amount: 10_000, settlement_payment_method: "cash" })).status, 401);
  t.is((await call("POST", `/appointments/${own}/payments`, { amount: 1000, payment_method: "cash" })).status, 401);

  for (const [method, path] of [
    ["GET", "/appointments"],
    ["GET", `/appointments/${own}`],
    ["GET", "/calendar"],
    ["GET", "/settings"],
    ["PATCH", "/settings"],
    ["GET", "/payments"],
    ["POST", "/services"],
    ["DELETE", `/appointments/${own}`],
    ["GET", "/contacts"],
  ] as const) {
    const response = await call(method, path, method === "GET" ? undefined : {});
    t.deepEqual([response.status, response.body], [401, BOTS_DENIED], `${method} ${path}`);
  }
  const logged = await h.knex("audit_logs").where({ account_id: c.account.id, user_type: "AgentBot" }).select("action");
  t.deepEqual(logged, [{ action: "create" }], "only the bot's one booking is in the log");
});

test("a bot of the account not connected to the conversation's inbox is refused", async (t) => {
  const { c, ours } = await botWorld();
  const loose = await expectOk(accountApi(h, c.account).post("/agent_bots", { name: "Loose", outgoing_url: "https://bot.test/x" }), "bot");
  const response = await h.request("POST", `/api/v1/accounts/${c.account.id}/scheduling/appointments`, {
    token: loose.access_token,
    body: { resource_id: c.resource.id, service_id: c.service.id, conversation_id: ours.id, starts_at: inMinutes(200) },
  });
  t.is(response.status, 401);
});

test("a bot's retry with the same idempotency key returns its booking and is audited once", async (t) => {
  const { c, ours, call } = await botWorld();
  const body = { resource_id: c.resource.id, service_id: c.service.id, conversation_id: ours.id, starts_at: inMinutes(150), idempotency_key: "bot-1" };
  const [first, again] = [await call("POST", "/appointments", body), await call("POST", "/appointments", body)];
  t.deepEqual([first.status, again.status], [201, 200]);
  t.is(again.body.payload.id, first.body.payload.id);
  const logged = await h.knex("audit_logs").where({ account_id: c.account.id, auditable_type: "Scheduling::Appointment" }).select("action");
  t.deepEqual(logged, [{ action: "create" }]);
});
