import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import type { Knex } from "knex";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { definedOnly } from "../../../lib/objects";
import { secureToken } from "../../../lib/tokens";
import { AgentBot } from "../../../models/AgentBot";
import { AgentBotInbox } from "../../../models/AgentBotInbox";
import { CHANNEL_REQUEST_TYPES, Inbox, type Channel } from "../../../models/Inbox";
import { requireAdministrator } from "../../../policies";
import { findVisibleInbox, visibleInboxes } from "../../../policies/inboxes";
import { presentInbox } from "../../../presenters/inbox";
import { auditActor, diff, recordAudit, snapshot } from "../../../services/audit";
import { headOk } from "../../../http/headOk";
import { API_CHANNEL_KEYS, DEFAULT_WIDGET_FEATURE_FLAGS, WIDGET_CHANNEL_KEYS, inboxCreate, inboxesEnvelope, inboxUpdate, setAgentBotBody } from "./schema";
import { NO_AVATAR, withUploadedAvatar } from "../../../services/avatars";
import { inboxResponse } from "../../../schemas/inbox";

const AUDITED = [
  "account_id",
  "name",
  "channel_type",
  "channel_id",
  "greeting_enabled",
  "greeting_message",
  "working_hours_enabled",
  "working_hours",
  "out_of_office_message",
  "timezone",
  "enable_email_collect",
  "csat_survey_enabled",
  "enable_auto_assignment",
  "auto_assignment_config",
  "allow_messages_after_resolved",
  "lock_to_single_conversation",
  "sender_name_type",
  "business_name",
] as const;

/** The channel settings of a request that apply to the inbox's channel type; the others are ignored, as Rails' permit does. */
function channelAttributes(channelType: Inbox["channel_type"], channel: Record<string, unknown> = {}) {
  const keys: readonly string[] = channelType === "Channel::Api" ? API_CHANNEL_KEYS : WIDGET_CHANNEL_KEYS;
  return definedOnly(Object.fromEntries(Object.entries(channel).filter(([key]) => keys.includes(key))));
}

function present(ctx: AppContext, inbox: Inbox, channel: Channel) {
  return presentInbox(inbox, channel, { administrator: ctx.state.membership?.role === "administrator" });
}

async function audit(ctx: AppContext, trx: Knex.Transaction, inbox: Inbox, action: "create" | "update" | "destroy", changes: Record<string, unknown>) {
  await recordAudit(trx, auditActor(ctx), { accountId: inbox.account_id, auditableType: "Inbox", auditableId: inbox.id, action, changes });
}

async function findAccountInbox(ctx: AppContext, id: number): Promise<Inbox> {
  const inbox = await Inbox.findInAccount(ctx.state.account!.id, id);
  if (!inbox) throw NotFound();
  return inbox;
}

export function registerInboxRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/inboxes";

  router.route(
    { method: "get", path, summary: "List inboxes (agents see the inboxes they belong to)", params: accountParams, response: inboxesEnvelope },
    async (ctx) => {
      const inboxes = await visibleInboxes(ctx);
      const channels = await Inbox.channelsOf(inboxes);
      ctx.body = { payload: inboxes.map((inbox) => present(ctx, inbox, channels.get(inbox.id)!)) };
    },
  );

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get an inbox", params: accountResourceParams, response: inboxResponse },
    async (ctx, { params }) => {
      const inbox = await findVisibleInbox(ctx, params.id);
      ctx.body = present(ctx, inbox, await inbox.channel());
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create an API or web widget inbox",
      multipart: true,
      params: accountParams,
      body: inboxCreate,
      response: inboxResponse,
    },
    async (ctx, { body: { avatar, ...body } }) => {
      const { channel: channelInput, ...inboxInput } = body;
      const channelType = CHANNEL_REQUEST_TYPES[channelInput.type];
      const channelDefaults = channelType === "Channel::WebWidget" ? { selected_feature_flags: DEFAULT_WIDGET_FEATURE_FLAGS } : {};
      const { inbox, channel } = await withUploadedAvatar(ctx.state.account!.id, "inbox", avatar, (stored) =>
        Inbox.transaction(async (trx) => {
          const created = await Inbox.createWithChannel(
            trx,
            ctx.state.account!.id,
            channelType,
            { ...channelDefaults, ...channelAttributes(channelType, channelInput) },
            { ...definedOnly(inboxInput), ...stored } as Partial<Inbox>,
          );
          await audit(ctx, trx, created.inbox, "create", snapshot(created.inbox, AUDITED));
          return created;
        }),
      );
      ctx.body = present(ctx, inbox, channel);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update an inbox and its channel settings",
      multipart: true,
      params: accountResourceParams,
      body: inboxUpdate,
      response: inboxResponse,
    },
    async (ctx, { params, body: { avatar, ...body } }) => {
      const inbox = await findAccountInbox(ctx, params.id);
      const { channel: channelInput, ...inboxInput } = body;
      const result = await withUploadedAvatar(inbox.account_id, "inbox", avatar, (stored) =>
        Inbox.transaction(async (trx) => {
          const before = await Inbox.lockInAccount(trx, inbox.account_id, inbox.id);
          const attributes = { ...definedOnly(inboxInput), ...stored } as Partial<Inbox>;
          const updated = Object.keys(attributes).length ? await Inbox.query(trx).patchAndFetchById(inbox.id, attributes) : before;
          const channel = await updated.updateChannel(trx, channelAttributes(inbox.channel_type, channelInput));
          const changes = diff(before, updated, AUDITED);
          if (Object.keys(changes).length) await audit(ctx, trx, updated, "update", changes);
          return { inbox: updated, channel };
        }),
      );
      if (avatar) await purgeDeletedFilesQuietly(ctx.deps.knex, inbox.account_id);
      ctx.body = present(ctx, result.inbox, result.channel);
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id/avatar`, summary: "Remove the inbox's avatar", params: accountResourceParams },
    async (ctx, { params }) => {
      const inbox = await findAccountInbox(ctx, params.id);
      await Inbox.query().patch(NO_AVATAR).where({ id: inbox.id });
      await purgeDeletedFilesQuietly(ctx.deps.knex, inbox.account_id);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete an inbox with its conversations",
      params: accountResourceParams,
    },
    async (ctx, { params }) => {
      const inbox = await findAccountInbox(ctx, params.id);
      await Inbox.transaction(async (trx) => {
        await inbox.destroyWithDependents(trx);
        await audit(ctx, trx, inbox, "destroy", snapshot(inbox, AUDITED));
      });
      await purgeDeletedFilesQuietly(ctx.deps.knex, inbox.account_id);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/set_agent_bot`,
      summary: "Attach an agent bot to the inbox (null detaches it)",
      params: accountResourceParams,
      body: setAgentBotBody,
    },
    async (ctx, { params, body }) => {
      const inbox = await findAccountInbox(ctx, params.id);
      const botId = body.agent_bot ?? null;
      if (botId !== null && !(await AgentBot.accessibleTo(inbox.account_id).findById(botId))) throw NotFound();
      await AgentBotInbox.transaction((trx) => AgentBotInbox.setBot(trx, inbox.account_id, inbox.id, botId));
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/reset_secret`,
      summary: "Issue a new webhook signing secret for an API inbox",
      params: accountResourceParams,
      response: inboxResponse,
    },
    async (ctx, { params }) => {
      const inbox = await findAccountInbox(ctx, params.id);
      if (inbox.channel_type !== "Channel::Api") throw NotFound();
      const channel = await Inbox.transaction((trx) => inbox.updateChannel(trx, { secret: secureToken() }));
      ctx.body = present(ctx, inbox, channel);
    },
  );
}
