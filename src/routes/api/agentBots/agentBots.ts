import { z } from "zod";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { AccessToken } from "../../../models/AccessToken";
import { AgentBot } from "../../../models/AgentBot";
import { authorize, requireAdministrator } from "../../../policies";
import { presentAccountAgentBot as present } from "../../../presenters/agentBot";
import { auditAgentBot } from "../../../services/agentBotAudit";
import { agentBotBody } from "./schema";
import { headOk } from "../../../http/headOk";
import { NO_AVATAR, withUploadedAvatar } from "../../../services/avatars";
import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import { requestAvatarFetch } from "../../../services/avatarFetch";
import { agentBotResponse } from "../../../schemas/agentBot";

/** Bots the account may change: its own, never the system bots. */
async function ownBot(ctx: AppContext, id: number): Promise<AgentBot> {
  const bot = await AgentBot.query().findOne({ id, account_id: ctx.state.account!.id });
  if (!bot) throw NotFound();
  return bot;
}

export function registerAgentBotRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/agent_bots";

  router.route({ method: "get", path, summary: "List agent bots", params: accountParams, response: z.array(agentBotResponse) }, async (ctx) => {
    authorize(ctx, "administrator", "agent");
    const bots = await AgentBot.accessibleTo(ctx.state.account!.id);
    ctx.body = await Promise.all(bots.map((bot) => present(ctx, bot)));
  });

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get an agent bot", params: accountResourceParams, response: agentBotResponse },
    async (ctx, { params }) => {
      authorize(ctx, "administrator", "agent");
      const bot = await AgentBot.accessibleTo(ctx.state.account!.id).findById(params.id);
      if (!bot) throw NotFound();
      ctx.body = await present(ctx, bot);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create an agent bot",
      multipart: true,
      params: accountParams,
      body: agentBotBody,
      response: agentBotResponse,
    },
    async (ctx, { body: { avatar, ...body } }) => {
      const accountId = ctx.state.account!.id;
      const bot = await withUploadedAvatar(accountId, "agent_bot", avatar, (stored) =>
        AgentBot.transaction(async (trx) => {
          const { bot: created } = await AgentBot.createWithToken({ ...body, ...stored, account_id: accountId }, trx);
          await auditAgentBot(ctx, trx, undefined, created);
          await requestAvatarFetch(trx, "agent_bot", undefined, created);
          return created;
        }),
      );
      ctx.body = await present(ctx, bot);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update an agent bot",
      multipart: true,
      params: accountResourceParams,
      body: agentBotBody,
      response: agentBotResponse,
    },
    async (ctx, { params, body: { avatar, ...body } }) => {
      const bot = await ownBot(ctx, params.id);
      const updated = await withUploadedAvatar(bot.account_id, "agent_bot", avatar, (stored) =>
        AgentBot.transaction(async (trx) => {
          const before = await AgentBot.lockInAccount(trx, bot.account_id!, bot.id);
          const after = await AgentBot.query(trx).patchAndFetchById(bot.id, { ...body, ...stored });
          await auditAgentBot(ctx, trx, before, after);
          await requestAvatarFetch(trx, "agent_bot", before, after);
          return after;
        }),
      );
      if (avatar) await purgeDeletedFilesQuietly(ctx.deps.knex, bot.account_id ?? 0);
      ctx.body = await present(ctx, updated);
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete an agent bot", params: accountResourceParams },
    async (ctx, { params }) => {
      const bot = await ownBot(ctx, params.id);
      await AgentBot.transaction(async (trx) => {
        await bot.destroy(trx);
        await auditAgentBot(ctx, trx, bot, undefined);
      });
      await purgeDeletedFilesQuietly(ctx.deps.knex, bot.account_id ?? 0);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id/avatar`,
      summary: "Remove the bot's avatar",
      params: accountResourceParams,
      response: agentBotResponse,
    },
    async (ctx, { params }) => {
      const bot = await ownBot(ctx, params.id);
      const updated = await AgentBot.query().patchAndFetchById(bot.id, NO_AVATAR);
      await purgeDeletedFilesQuietly(ctx.deps.knex, bot.account_id!);
      ctx.body = await present(ctx, updated);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/reset_access_token`,
      summary: "Issue a new access token for the bot",
      params: accountResourceParams,
      response: agentBotResponse,
    },
    async (ctx, { params }) => {
      const bot = await ownBot(ctx, params.id);
      await AccessToken.rotate("AgentBot", bot.id);
      ctx.body = await present(ctx, bot);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/reset_secret`,
      summary: "Issue a new webhook signing secret for the bot",
      params: accountResourceParams,
      response: agentBotResponse,
    },
    async (ctx, { params }) => {
      const bot = await ownBot(ctx, params.id);
      ctx.body = await present(ctx, await bot.resetSecret());
    },
  );
}
