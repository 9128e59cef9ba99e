import test from "ava";
import { useHarness } from "../support/harness";
import { clientWorld, type ClientWorld } from "./world";
import { n8nOperations, n8nRequest } from "./n8nNode";

/**
 * Every operation of the n8n Chatwoot node (@devlikeapro/n8n-nodes-chatwoot), sent as n8n sends it:
 * every field its user sees, with its default unless the user typed a value (the `inputs` below:
 * the ids and names a user fills in). Each must answer 2xx with what a next node would read.
 */

const h = useHarness(test);

interface Case {
  /** What the user types into the node's fields; every other field keeps its default. */
  inputs?: (w: ClientWorld) => Promise<Record<string, unknown>>;
  /** Paths (dot separated) a next node reads from the response. */
  reads?: string[];
}

const PLATFORM = new Set(["Accounts", "Account Users", "Agent Bots", "Users"]);

/** Operations that cannot succeed as the node builds them, whatever the server does. */
const NODE_BUGS: Record<string, string> = {
  "Help Center / Update New Portal To Account": "its URL has no portal id (PATCH /portals), a route Chatwoot does not have either",
  "CSAT Survey Page / Get Csat Survey Page":
    "the survey page is the dashboard's HTML at /survey/responses/{uuid}, and the node types the uuid as a number (default 0)",
};

/** Operations on parts of Chatwoot this service does not serve (outside its interface). */
const NOT_SERVED: Record<string, string> = {
  "Help Center / Get Portal": "the help center is not part of this service",
  "Help Center / Add New Portal To Account": "the help center is not part of this service",
  "Help Center / Add New Category To Account": "the help center is not part of this service",
  "Help Center / Add New Article To Account": "the help center is not part of this service",
};

const CONDITIONS = JSON.stringify([{ attribute_key: "content", filter_operator: "contains", query_operator: null, values: ["help"] }]);
const FILTER_QUERY = JSON.stringify({ payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }] });
const SUBSCRIPTIONS = JSON.stringify(["message_created"]);

const account = async (w: ClientWorld) => ({ account_id: (await w.account()).id });
const inConversation = async (w: ClientWorld) => ({ ...(await account(w)), conversation_id: await w.conversation() });
const publicPath = async (w: ClientWorld) => ({ inbox_identifier: (await w.inbox()).inbox_identifier, contact_identifier: await w.publicContact() });

const CASES: Record<string, Case> = {
  "Accounts / Create An Account": { inputs: async () => ({ name: "From n8n" }), reads: ["id", "name"] },
  "Accounts / Get Details Of An Account": { inputs: async (w) => ({ account_id: await w.platformAccount() }), reads: ["id", "name"] },
  "Accounts / Delete An Account": { inputs: async (w) => ({ account_id: await w.platformAccount() }) },
  "Accounts / Update An Account": { inputs: async (w) => ({ account_id: await w.platformAccount(), name: "Renamed" }), reads: ["id", "name"] },
  "Account Users / List All Account Users": { inputs: account, reads: ["0.user_id", "0.role"] },
  "Account Users / Create An Account User": {
    inputs: async (w) => ({ ...(await account(w)), user_id: (await w.user()).id, role: "agent" }),
    reads: ["user_id", "role"],
  },
  "Account Users / Delete An Account User": { inputs: async (w) => ({ ...(await account(w)), user_id: (await w.account()).agent.id }) },
  "Agent Bots / List All Agent Bots": {},
  "Agent Bots / Create An Agent Bot": { inputs: async () => ({ name: "n8n bot" }), reads: ["id", "name"] },
  "Agent Bots / Get Details Of A Single Agent Bot": { inputs: async (w) => ({ id: await w.platformBot() }), reads: ["id", "name"] },
  "Agent Bots / Delete An Agent Bot": { inputs: async (w) => ({ id: await w.platformBot() }) },
  "Agent Bots / Update An Agent Bot": { inputs: async (w) => ({ id: await w.platformBot(), name: "Renamed bot" }), reads: ["id", "name"] },
  "Users / Create A User": {
    inputs: async () => ({ name: "n8n user", email: `n8n-${Date.now()}-${Math.random()}@example.com`, password: "Passw0rd!" }),
    reads: ["id", "email"],
  },
  "Users / Get Details Of A User": { inputs: async (w) => ({ id: (await w.user()).id }), reads: ["id", "email"] },
  "Users / Delete A User": { inputs: async (w) => ({ id: (await w.user()).id }) },
  "Users / Update A User": {
    inputs: async (w) => ({ id: (await w.user()).id, name: "Renamed user", email: `n8n-${Date.now()}-${Math.random()}@example.com`, password: "Passw0rd!2" }),
    reads: ["id", "name"],
  },
  "Users / Get Sso Url Of A User": { inputs: async (w) => ({ id: (await w.user()).id }), reads: ["url"] },
  "Inbox API / Get Details Of A Inbox": { inputs: async (w) => ({ inbox_identifier: (await w.inbox()).inbox_identifier }), reads: ["identifier", "name"] },
  "Contacts API / Create A Contact": {
    inputs: async (w) => ({ inbox_identifier: (await w.inbox()).inbox_identifier, name: "Visitor", email: "visitor@example.com" }),
    reads: ["source_id", "pubsub_token", "id"],
  },
  "Contacts API / Get Details Of A Contact": { inputs: publicPath, reads: ["source_id", "id"] },
  "Contacts API / Update A Contact": { inputs: async (w) => ({ ...(await publicPath(w)), name: "Visitor Renamed" }), reads: ["id", "name"] },
  "Conversations API / List All Contact Conversations": { inputs: async (w) => (await w.publicConversation(), publicPath(w)), reads: ["0.id"] },
  "Conversations API / Create A Conversation": { inputs: publicPath, reads: ["id", "inbox_id"] },
  "Messages API / List All Converation Messages": {
    inputs: async (w) => (await w.publicMessage(), { ...(await publicPath(w)), conversation_id: await w.publicConversation() }),
    reads: ["0.id"],
  },
  "Messages API / Create A Message": {
    inputs: async (w) => ({ ...(await publicPath(w)), conversation_id: await w.publicConversation(), content: "From n8n" }),
    reads: ["id", "content"],
  },
  "Messages API / Update A Message": {
    inputs: async (w) => ({ ...(await publicPath(w)), conversation_id: await w.publicConversation(), message_id: await w.publicMessage() }),
    reads: ["id"],
  },
  "Account Agent Bots / List All Account Agent Bots": { inputs: account },
  "Account Agent Bots / Create An Account Agent Bot": { inputs: async (w) => ({ ...(await account(w)), name: "n8n bot" }), reads: ["id", "name"] },
  "Account Agent Bots / Get Details Of A Single Account Agent Bot": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.accountBot() }),
    reads: ["id", "name"],
  },
  "Account Agent Bots / Delete An Account Agent Bot": { inputs: async (w) => ({ ...(await account(w)), id: await w.accountBot() }) },
  "Account Agent Bots / Update An Account Agent Bot": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.accountBot(), name: "Renamed" }),
    reads: ["id", "name"],
  },
  "Agents / Get Account Agents": { inputs: account, reads: ["0.id", "0.role"] },
  "Agents / Add New Agent To Account": {
    inputs: async (w) => ({ ...(await account(w)), name: "New Agent", email: `agent-${Date.now()}-${Math.random()}@example.com` }),
    reads: ["id", "email"],
  },
  "Agents / Delete Agent From Account": { inputs: async (w) => ({ ...(await account(w)), id: (await w.account()).agent.id }) },
  "Agents / Update Agent In Account": { inputs: async (w) => ({ ...(await account(w)), id: (await w.account()).agent.id }), reads: ["id", "role"] },
  "Canned Responses / Get Account Canned Response": { inputs: account },
  "Canned Responses / Add New Canned Response To Account": {
    inputs: async (w) => ({ ...(await account(w)), content: "Thanks!", short_code: "thanks" }),
    reads: ["id", "short_code"],
  },
  "Canned Responses / Delete Canned Response From Account": { inputs: async (w) => ({ ...(await account(w)), id: await w.cannedResponse() }) },
  "Canned Response / Update Canned Response In Account": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.cannedResponse(), content: "Hi there", short_code: "hi2" }),
    reads: ["id", "content"],
  },
  "Custom Attributes / Get Account Custom Attribute": { inputs: account },
  "Custom Attributes / Add New Custom Attribute To Account": {
    inputs: async (w) => ({ ...(await account(w)), attribute_display_name: "Shoe size", attribute_key: "shoe_size" }),
    reads: ["id", "attribute_key"],
  },
  "Custom Attributes / Get Details Of A Single Custom Attribute": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.attribute() }),
    reads: ["id", "attribute_key"],
  },
  "Custom Attributes / Delete Custom Attribute From Account": { inputs: async (w) => ({ ...(await account(w)), id: await w.attribute() }) },
  "Custom Attributes / Update Custom Attribute In Account": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.attribute(), attribute_display_name: "Plan name", attribute_key: "plan" }),
    reads: ["id", "attribute_display_name"],
  },
  "Contacts / Contact List": { inputs: async (w) => (await w.contact(), account(w)), reads: ["payload.0.id", "meta.count"] },
  "Contacts / Contact Create": {
    inputs: async (w) => ({ ...(await account(w)), inbox_id: (await w.inbox()).id, name: "Ann", phone_number: "+5511977776666" }),
    reads: ["payload.contact.id", "payload.contact_inbox.source_id"],
  },
  "Contacts / Contact Details": { inputs: async (w) => ({ ...(await account(w)), id: (await w.contact()).id }), reads: ["payload.id"] },
  "Contacts / Contact Update": {
    inputs: async (w) => ({ ...(await account(w)), id: (await w.contact()).id, name: "Ann Renamed" }),
    reads: ["payload.id", "payload.name"],
  },
  "Contacts / Contact Delete": { inputs: async (w) => ({ ...(await account(w)), id: (await w.contact()).id }) },
  "Contacts / Contact Conversations": {
    inputs: async (w) => (await w.conversation(), { ...(await account(w)), id: (await w.contact()).id }),
    reads: ["payload.0.id"],
  },
  "Contacts / Contact Search": { inputs: async (w) => (await w.contact(), { ...(await account(w)), q: "Jane" }), reads: ["payload.0.id", "meta.count"] },
  "Contacts / Contact Filter": { inputs: account, reads: ["payload", "meta.count"] },
  "Contact / Contact Inbox Creation": {
    inputs: async (w) => ({ ...(await account(w)), id: (await w.contact()).id, inbox_id: (await w.inbox()).id, source_id: "from-n8n" }),
    reads: ["source_id", "inbox.id"],
  },
  "Contact / Contactable Inboxes Get": { inputs: async (w) => ({ ...(await account(w)), id: (await w.contact()).id }), reads: ["payload.0.inbox.id"] },
  "Automation Rule / Get Account Automation Rule": { inputs: async (w) => (await w.automationRule(), account(w)), reads: ["payload.0.id"] },
  // The sample conditions' query_operator "nil" is refused by Chatwoot too: a user types real ones.
  "Automation Rule / Add New Automation Rule To Account": { inputs: async (w) => ({ ...(await account(w)), conditions: CONDITIONS }), reads: ["id", "name"] },
  "Automation Rule / Get Details Of A Single Automation Rule": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.automationRule() }),
    reads: ["payload.id"],
  },
  "Automation Rule / Delete Automation Rule From Account": { inputs: async (w) => ({ ...(await account(w)), id: await w.automationRule() }) },
  "Automation Rule / Update Automation Rule In Account": {
    inputs: async (w) => ({ ...(await account(w)), id: await w.automationRule(), conditions: CONDITIONS }),
    reads: ["payload.id"],
  },
  "Conversations / Conversation List Meta": { inputs: async (w) => ({ ...(await account(w)), inbox_id: (await w.inbox()).id }), reads: ["meta.all_count"] },
  "Conversations / Conversation List": { inputs: async (w) => (await w.conversation(), account(w)), reads: ["data.meta.all_count", "data.payload"] },
  // The sample message is a WhatsApp template without content; on an API inbox a user types one.
  "Conversations / New Conversation": {
    inputs: async (w) => ({
      ...(await account(w)),
      source_id: (await w.contact()).sourceId,
      inbox_id: String((await w.inbox()).id),
      contact_id: String((await w.contact()).id),
      message: JSON.stringify({ content: "Hello from n8n" }),
    }),
    reads: ["id", "inbox_id", "status"],
  },
  // The sample payload's operators (not_eq, eq) are refused by Chatwoot too: a user types the filter.
  "Conversations / Conversation Filter": {
    inputs: async (w) => ({
      ...(await account(w)),
      payload: JSON.stringify([{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }]),
    }),
    reads: ["payload", "meta.all_count"],
  },
  "Conversations / Get Details Of A Conversation": { inputs: inConversation, reads: ["id", "status", "meta.sender.id"] },
  "Conversations / Toggle Status Of A Conversation": {
    inputs: async (w) => ({ ...(await inConversation(w)), status: "resolved" }),
    reads: ["payload.current_status"],
  },
  "Conversations / Toggle Priority Of A Conversation": { inputs: inConversation },
  "Conversation Assignment / Assign A Conversation": {
    inputs: async (w) => ({ ...(await inConversation(w)), assignee_id: (await w.account()).admin.id }),
    reads: ["id"],
  },
  "Conversation Labels / List All Labels Of A Conversation": { inputs: inConversation, reads: ["payload"] },
  "Conversation Labels / Conversation Add Labels": {
    inputs: async (w) => ({ ...(await inConversation(w)), labels: JSON.stringify(["billing"]) }),
    reads: ["payload.0"],
  },
  "Inboxes / List All Inboxes": { inputs: async (w) => (await w.inbox(), account(w)), reads: ["payload.0.id"] },
  "Inboxes / Get Inbox": { inputs: async (w) => ({ ...(await account(w)), id: (await w.inbox()).id }), reads: ["id", "name"] },
  "Inboxes / Inbox Creation": {
    inputs: async (w) => ({ ...(await account(w)), name: "From n8n", channel: JSON.stringify({ type: "api", webhook_url: "" }) }),
    reads: ["id", "inbox_identifier"],
  },
  "Inboxes / Update Inbox": { inputs: async (w) => ({ ...(await account(w)), id: (await w.inbox()).id, name: "Renamed inbox" }), reads: ["id", "name"] },
  "Inboxes / Get Inbox Agent Bot": { inputs: async (w) => ({ ...(await account(w)), id: (await w.inbox()).id }) },
  "Inboxes / Update Agent Bot": { inputs: async (w) => ({ ...(await account(w)), id: (await w.inbox()).id, agent_bot: await w.accountBot() }) },
  "Inboxes / Get Inbox Members": { inputs: async (w) => ({ ...(await account(w)), inbox_id: (await w.inbox()).id }), reads: ["payload"] },
  "Inboxes / Add New Agent To Inbox": {
    inputs: async (w) => ({ ...(await account(w)), inbox_id: String((await w.inbox()).id), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
    reads: ["payload.0.id"],
  },
  "Inboxes / Delete Agent In Inbox": {
    inputs: async (w) => ({ ...(await account(w)), inbox_id: String((await w.inbox()).id), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
  },
  "Inboxes / Update Agents In Inbox": {
    inputs: async (w) => ({ ...(await account(w)), inbox_id: String((await w.inbox()).id), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
    reads: ["payload.0.id"],
  },
  "Messages / List All Messages": { inputs: async (w) => (await w.message(), inConversation(w)), reads: ["payload.0.id", "meta"] },
  // The node offers no plain text content_type, and its default (cards) needs items, in Chatwoot too.
  "Messages / Create A New Message In A Conversation": {
    inputs: async (w) => ({ ...(await inConversation(w)), content: "From n8n", content_type: "input_email" }),
    reads: ["id", "content"],
  },
  "Messages / Delete A Message": { inputs: async (w) => ({ ...(await inConversation(w)), message_id: await w.message() }) },
  "Integrations / Get Details Of All Integrations": { inputs: account, reads: ["payload"] },
  "Integrations / Create An Integration Hook": { inputs: async (w) => ({ ...(await account(w)), app_id: "dashboard_apps" }), reads: ["id", "app_id"] },
  "Integrations / Delete An Integration Hook": { inputs: async (w) => ({ ...(await account(w)), hook_id: await w.hook() }) },
  "Integrations / Update An Integrations Hook": { inputs: async (w) => ({ ...(await account(w)), hook_id: await w.hook() }), reads: ["id"] },
  "Profile / Fetch Profile": { reads: ["id", "email", "accounts"] },
  "Teams / List All Teams": { inputs: async (w) => (await w.team(), account(w)), reads: ["0.id"] },
  "Teams / Create A Team": { inputs: async (w) => ({ ...(await account(w)), name: `n8n-${Date.now()}` }), reads: ["id", "name"] },
  "Teams / Get Details Of A Single Team": { inputs: async (w) => ({ ...(await account(w)), team_id: await w.team() }), reads: ["id", "name"] },
  "Teams / Delete A Team": { inputs: async (w) => ({ ...(await account(w)), team_id: await w.team() }) },
  "Teams / Update A Team": { inputs: async (w) => ({ ...(await account(w)), team_id: await w.team(), name: `renamed-${Date.now()}` }), reads: ["id", "name"] },
  "Teams / Get Team Members": { inputs: async (w) => ({ ...(await account(w)), team_id: await w.team() }) },
  "Teams / Add New Agent To Team": {
    inputs: async (w) => ({ ...(await account(w)), team_id: await w.team(), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
    reads: ["0.id"],
  },
  "Teams / Delete Agent In Team": {
    inputs: async (w) => ({ ...(await account(w)), team_id: await w.team(), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
  },
  "Teams / Update Agents In Team": {
    inputs: async (w) => ({ ...(await account(w)), team_id: await w.team(), user_ids: JSON.stringify([(await w.account()).agent.id]) }),
    reads: ["0.id"],
  },
  "Custom Filters / List All Filters": { inputs: async (w) => (await w.customFilter(), account(w)), reads: ["0.id"] },
  // An empty query is refused by Chatwoot too ("can't be blank"): a user types the filter.
  "Custom Filters / Create A Custom Filter": { inputs: async (w) => ({ ...(await account(w)), name: "From n8n", query: FILTER_QUERY }), reads: ["id", "name"] },
  "Custom Filters / Get Details Of A Single Custom Filter": {
    inputs: async (w) => ({ ...(await account(w)), custom_filter_id: await w.customFilter() }),
    reads: ["id", "name"],
  },
  "Custom Filters / Delete A Custom Filter": { inputs: async (w) => ({ ...(await account(w)), custom_filter_id: await w.customFilter() }) },
  "Custom Filters / Update A Custom Filter": {
    inputs: async (w) => ({ ...(await account(w)), custom_filter_id: await w.customFilter(), name: "Renamed", query: FILTER_QUERY }),
    reads: ["id", "name"],
  },
  "Webhooks / List All Webhooks": { inputs: async (w) => (await w.webhook(), account(w)), reads: ["payload.webhooks.0.id"] },
  // The default subscriptions `[null]` name no event (Chatwoot refuses them too): a user picks some.
  "Webhooks / Create A Webhook": {
    inputs: async (w) => ({ ...(await account(w)), url: "https://example.com/n8n", subscriptions: SUBSCRIPTIONS }),
    reads: ["payload.webhook.id"],
  },
  "Webhooks / Delete A Webhook": { inputs: async (w) => ({ ...(await account(w)), webhook_id: await w.webhook() }) },
  "Webhooks / Update A Webhook": {
    inputs: async (w) => ({ ...(await account(w)), webhook_id: await w.webhook(), url: "https://example.com/n8n2", subscriptions: SUBSCRIPTIONS }),
    reads: ["payload.webhook.id"],
  },
  "Reports / List All Conversation Statistics": { inputs: account },
  "Reports / List All Conversation Statistics Summary": { inputs: account },
  "Reports / Get Account Conversation Metrics": { inputs: account },
  "Reports / Get Agent Conversation Metrics": { inputs: account },
};

function read(body: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => (value == null ? undefined : (value as Record<string, unknown>)[key]), body);
}

const operations = n8nOperations();

test("the node's description lists the operations this file covers", (t) => {
  const names = operations.map((o) => `${o.resource} / ${o.operation}`);
  t.is(names.length, 115);
  t.deepEqual(names.filter((name) => !(name in CASES) && !(name in NODE_BUGS) && !(name in NOT_SERVED)).sort(), []);
});

for (const operation of operations) {
  const name = `${operation.resource} / ${operation.operation}`;
  const known = name in NODE_BUGS ? `node bug: ${NODE_BUGS[name]}` : name in NOT_SERVED ? `not served: ${NOT_SERVED[name]}` : undefined;
  if (known) continue;
  test(`n8n: ${name}`, async (t) => {
    const world = clientWorld(h);
    const spec = CASES[name];
    const inputs = (await spec.inputs?.(world)) ?? {};
    const token = PLATFORM.has(operation.resource) ? h.platformToken : (await world.account()).admin.token;
    const request = n8nRequest(operation, inputs);
    const response = await h.request(request.method, request.path, {
      token,
      body: request.body,
      headers: { accept: "application/json", "content-type": "application/json" },
    });
    t.true(
      response.status >= 200 && response.status < 300,
      `${request.method} ${request.path} ${JSON.stringify(request.body)} → ${response.status} ${JSON.stringify(response.body)}`,
    );
    for (const path of spec.reads ?? []) t.not(read(response.body, path), undefined, `${path} in ${JSON.stringify(response.body)}`);
  });
}
