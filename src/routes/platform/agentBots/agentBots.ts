import { z } from "zod";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { idParams } from "../../../http/schemas";
import { AccessToken } from "../../../models/AccessToken";
import { Account } from "../../../models/Account";
import { AgentBot } from "../../../models/AgentBot";
import { presentPlatformAgentBot } from "../../../presenters/agentBot";
import { auditAgentBot } from "../../../services/agentBotAudit";
import { permissible, platformApp } from "../../../policies/platformApps";
import { platformAgentBotBody, platformAgentBotResponse } from "./schema";
import { headOk } from "../../../http/headOk";
import { withUploadedAvatar } from "../../../services/avatars";
import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import { requestAvatarFetch } from "../../../services/avatarFetch";

async function present(bot: AgentBot, token?: string) {
  return presentPlatformAgentBot(bot, token ?? (await AccessToken.tokenOf("AgentBot", bot.id)));
}

/** A bot may only be tied to an account this app provisioned. */
async function assertAccountPermitted(ctx: AppContext, accountId: number | null | undefined) {
  if (accountId) await permissible(ctx, "Account", () => Account.findLive(accountId));
}

const find = (id: number) => () => AgentBot.query().findById(id);

export function registerPlatformAgentBotRoutes(router: ApiRouter) {
  router.route(
    { method: "get", path: "/agent_bots", summary: "List the agent bots this app created", response: z.array(platformAgentBotResponse) },
    async (ctx) => {
      const ids = await platformApp(ctx).permittedIds("AgentBot");
      const bots = await AgentBot.query().findByIds(ids).orderBy("id");
      const tokens = await AccessToken.tokensOf("AgentBot", ids);
      ctx.body = bots.map((bot) => presentPlatformAgentBot(bot, tokens.get(bot.id)));
    },
  );

  router.route(
    { method: "post", path: "/agent_bots", summary: "Create an agent bot", multipart: true, body: platformAgentBotBody, response: platformAgentBotResponse },
    async (ctx, { body: { avatar, ...body } }) => {
      await assertAccountPermitted(ctx, body.account_id);
      const { bot, token } = await withUploadedAvatar(body.account_id ?? null, "agent_bot", avatar, (stored) =>
        AgentBot.transaction(async (trx) => {
          const created = await AgentBot.createWithToken({ ...body, ...stored }, trx);
          await platformApp(ctx).permit("AgentBot", created.bot.id, trx);
          await auditAgentBot(ctx, trx, undefined, created.bot);
          await requestAvatarFetch(trx, "agent_bot", undefined, created.bot);
          return created;
        }),
      );
      ctx.body = await present(bot, token);
    },
  );

  router.route(
    { method: "get", path: "/agent_bots/:id", summary: "Get an agent bot", params: idParams, response: platformAgentBotResponse },
    async (ctx, { params }) => {
      ctx.body = await present(await permissible(ctx, "AgentBot", find(params.id)));
    },
  );

  router.route(
    {
      method: UPDATE,
      path: "/agent_bots/:id",
      summary: "Update an agent bot",
      multipart: true,
      params: idParams,
      body: platformAgentBotBody,
      response: platformAgentBotResponse,
    },
    async (ctx, { params, body: { avatar, ...body } }) => {
      const bot = await permissible(ctx, "AgentBot", find(params.id));
      await assertAccountPermitted(ctx, body.account_id);
      const accountId = body.account_id === undefined ? bot.account_id : body.account_id;
      const updated = await withUploadedAvatar(accountId, "agent_bot", avatar, (stored) =>
        AgentBot.transaction(async (trx) => {
          const after = await AgentBot.query(trx).patchAndFetchById(bot.id, { ...body, ...stored });
          await auditAgentBot(ctx, trx, bot, after);
          await requestAvatarFetch(trx, "agent_bot", bot, after);
          return after;
        }),
      );
      if (avatar) await purgeDeletedFilesQuietly(ctx.deps.knex, bot.account_id ?? 0);
      ctx.body = await present(updated);
    },
  );

  router.route({ method: "delete", path: "/agent_bots/:id", summary: "Delete an agent bot", params: idParams }, async (ctx, { params }) => {
    const bot = await permissible(ctx, "AgentBot", find(params.id));
    await AgentBot.transaction(async (trx) => {
      await bot.destroy(trx);
      await auditAgentBot(ctx, trx, bot, undefined);
    });
    await purgeDeletedFilesQuietly(ctx.deps.knex, bot.account_id ?? 0);
    headOk(ctx);
  });
}
