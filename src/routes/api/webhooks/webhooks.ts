import { NotFound, ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { secureToken } from "../../../lib/tokens";
import { definedOnly } from "../../../lib/objects";
import { Inbox } from "../../../models/Inbox";
import { DEFAULT_SUBSCRIPTIONS, Webhook } from "../../../models/Webhook";
import { WebhookDelivery } from "../../../models/WebhookDelivery";
import { requireAdministrator } from "../../../policies";
import { presentDelivery, presentWebhook } from "../../../presenters/webhook";
import { auditActor, diff, recordAudit, snapshot } from "../../../services/audit";
import { redeliver } from "../../../webhooks/redeliver";
import { headOk } from "../../../http/headOk";
import {
  deliveriesEnvelope,
  deliveriesQuery,
  deliveryEnvelope,
  deliveryParams,
  webhookCreate,
  webhookEnvelope,
  webhooksEnvelope,
  webhookUpdate,
  type WebhookInput,
} from "./schema";

const AUDITED = ["name", "url", "subscriptions", "inbox_id", "account_id"] as const;
const DELIVERIES_PER_PAGE = 25;

async function findWebhook(ctx: AppContext, id: number): Promise<Webhook> {
  const webhook = await Webhook.query().findOne({ id, account_id: ctx.state.account!.id });
  if (!webhook) throw NotFound();
  return webhook;
}

/** Chatwoot's validations: url unique per account, inbox (when given) of this account. */
async function validate(ctx: AppContext, input: WebhookInput, exceptId?: number) {
  const accountId = ctx.state.account!.id;
  if (input.url) {
    const taken = await Webhook.query()
      .findOne({ account_id: accountId, url: input.url })
      .whereNot("id", exceptId ?? 0);
    if (taken) throw ValidationError.of("url", "has already been taken");
  }
  if (input.inbox_id && !(await Inbox.query().findOne({ id: input.inbox_id, account_id: accountId }))) {
    throw ValidationError.of("inbox", "must exist");
  }
}

async function present(webhook: Webhook) {
  const inbox = webhook.inbox_id ? await Inbox.query().findById(webhook.inbox_id) : undefined;
  return presentWebhook(webhook, inbox);
}

export function registerWebhookRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/webhooks";

  router.route(
    { authorize: requireAdministrator, method: "get", path, summary: "List webhooks", params: accountParams, response: webhooksEnvelope },
    async (ctx) => {
      const webhooks = await Webhook.query().where("account_id", ctx.state.account!.id).orderBy("id");
      ctx.body = { payload: { webhooks: await Promise.all(webhooks.map(present)) } };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a webhook",
      params: accountParams,
      body: webhookCreate,
      response: webhookEnvelope,
    },
    async (ctx, { body }) => {
      await validate(ctx, body);
      const webhook = await Webhook.transaction(async (trx) => {
        const created = await Webhook.query(trx)
          .insert({
            ...definedOnly(body),
            url: body.url,
            subscriptions: body.subscriptions ?? [...DEFAULT_SUBSCRIPTIONS],
            account_id: ctx.state.account!.id,
            secret: secureToken(),
          })
          .returning("*");
        await recordAudit(trx, auditActor(ctx), {
          accountId: created.account_id,
          auditableType: "Webhook",
          auditableId: created.id,
          action: "create",
          changes: snapshot(created, AUDITED),
        });
        return created;
      });
      ctx.body = { payload: { webhook: await present(webhook) } };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a webhook",
      params: accountResourceParams,
      body: webhookUpdate,
      response: webhookEnvelope,
    },
    async (ctx, { params, body }) => {
      const webhook = await findWebhook(ctx, params.id);
      await validate(ctx, body, webhook.id);
      const updated = await Webhook.transaction(async (trx) => {
        const before = await Webhook.lockInAccount(trx, webhook.account_id, webhook.id);
        const after = await Webhook.query(trx).patchAndFetchById(webhook.id, definedOnly(body));
        const changes = diff(before, after, AUDITED);
        if (Object.keys(changes).length) {
          await recordAudit(trx, auditActor(ctx), {
            accountId: after.account_id,
            auditableType: "Webhook",
            auditableId: after.id,
            action: "update",
            changes,
          });
        }
        return after;
      });
      ctx.body = { payload: { webhook: await present(updated) } };
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete a webhook", params: accountResourceParams },
    async (ctx, { params }) => {
      const webhook = await findWebhook(ctx, params.id);
      await Webhook.transaction(async (trx) => {
        await Webhook.query(trx).deleteById(webhook.id);
        await recordAudit(trx, auditActor(ctx), {
          accountId: webhook.account_id,
          auditableType: "Webhook",
          auditableId: webhook.id,
          action: "destroy",
          changes: snapshot(webhook, AUDITED),
        });
      });
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/:id/deliveries`,
      summary: "Delivery log of a webhook, newest first",
      params: accountResourceParams,
      query: deliveriesQuery,
      response: deliveriesEnvelope,
    },
    async (ctx, { params, query }) => {
      const webhook = await findWebhook(ctx, params.id);
      const base = WebhookDelivery.query().where({ webhook_id: webhook.id, account_id: webhook.account_id });
      const [{ count }] = (await base.clone().count("* as count")) as unknown as [{ count: string }];
      const deliveries = await base
        .orderBy([{ column: "created_at", order: "desc" }, { column: "id" }])
        .limit(DELIVERIES_PER_PAGE)
        .offset((query.page - 1) * DELIVERIES_PER_PAGE);
      ctx.body = { meta: { count: Number(count), current_page: query.page }, payload: deliveries.map(presentDelivery) };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/deliveries/:delivery_id/redeliver`,
      summary: "Send a delivery again",
      params: deliveryParams,
      response: deliveryEnvelope,
    },
    async (ctx, { params }) => {
      const webhook = await findWebhook(ctx, params.id);
      const delivery = await WebhookDelivery.query().findOne({ id: params.delivery_id, webhook_id: webhook.id });
      if (!delivery) throw NotFound();
      ctx.body = { payload: presentDelivery(await redeliver(ctx.deps, delivery)) };
    },
  );
}
