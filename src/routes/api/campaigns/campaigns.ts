import { z } from "zod";
import type { Knex } from "knex";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { requireAdministrator } from "../../../policies";
import { createCampaign, destroyCampaign, findCampaign, listCampaigns, updateCampaign } from "../../../campaigns/campaigns";
import { presentCampaign } from "../../../campaigns/presenter";
import type { Campaign } from "../../../models/Campaign";
import { Inbox } from "../../../models/Inbox";
import { loadMembers } from "../../../models/InboxMember";
import { campaignBody, campaignResponse } from "./schema";

/** Campaigns with their inboxes and senders, read once for the list. */
async function present(db: Knex, campaigns: Campaign[]) {
  if (!campaigns.length) return [];
  const inboxes = new Map((await Inbox.query(db).findByIds([...new Set(campaigns.map((c) => c.inbox_id))])).map((i) => [i.id, i]));
  const senderIds = [...new Set(campaigns.flatMap((c) => (c.sender_id ? [c.sender_id] : [])))];
  const senders = new Map((await loadMembers(campaigns[0]!.account_id, senderIds, db)).map((m) => [m.user.id, m]));
  return campaigns.map((c) => presentCampaign(c, { inbox: inboxes.get(c.inbox_id)!, sender: c.sender_id ? senders.get(c.sender_id) : undefined }));
}

/** Chatwoot's CampaignsController: administrators only; `:id` is the campaign's display id. */
export function registerCampaignRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/campaigns";

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path,
      summary: "List the account's campaigns (a bare array)",
      params: accountParams,
      response: z.array(campaignResponse),
    },
    async (ctx) => {
      ctx.body = await present(ctx.deps.knex, await listCampaigns(ctx.state.account!.id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a campaign; a one-off (non-website inbox) messages its audience's contacts at scheduled_at",
      params: accountParams,
      body: campaignBody,
      response: campaignResponse,
    },
    async (ctx, { body }) => {
      const [json] = await present(ctx.deps.knex, [await createCampaign(ctx.deps.knex, ctx.state.account!.id, body)]);
      ctx.body = json;
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/:id`,
      summary: "Show a campaign",
      params: accountResourceParams,
      response: campaignResponse,
    },
    async (ctx, { params }) => {
      const [json] = await present(ctx.deps.knex, [await findCampaign(ctx.state.account!.id, params.id)]);
      ctx.body = json;
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a campaign (not once completed)",
      params: accountResourceParams,
      body: campaignBody,
      response: campaignResponse,
    },
    async (ctx, { params, body }) => {
      const current = await findCampaign(ctx.state.account!.id, params.id);
      const [json] = await present(ctx.deps.knex, [await updateCampaign(ctx.deps.knex, current, body)]);
      ctx.body = json;
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a campaign (a pending one-off is not sent)",
      params: accountResourceParams,
    },
    async (ctx, { params }) => {
      await destroyCampaign(ctx.deps.knex, await findCampaign(ctx.state.account!.id, params.id));
      headOk(ctx);
    },
  );
}
