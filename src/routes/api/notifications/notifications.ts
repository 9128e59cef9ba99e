import { z } from "zod";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { authorize } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { notificationPushData, notificationRecord } from "../../../notifications/presenters";
import { changeNotification, countsOf, deleteNotifications, findNotification, listNotifications, readAll, usersOf } from "../../../notifications/notifications";
import { presentSettings, settingsOf, updateSettings } from "../../../notifications/settings";
import {
  destroyAllBody,
  notificationList,
  notificationListQuery,
  notificationParams,
  notificationRecordResponse,
  readAllBody,
  settingsBody,
  settingsResponse,
  snoozeBody,
} from "./schema";

/** A user's own notifications in the account: any member, never a bot. */
const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");
const scope = (ctx: AppContext) => ({ accountId: ctx.state.account!.id, userId: ctx.state.membership!.user_id });

export function registerNotificationRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/notifications";

  router.route(
    {
      authorize: member,
      method: "get",
      path,
      summary: "The caller's notifications, 15 a page by last activity; read and snoozed ones only with includes[]=read / includes[]=snoozed",
      params: accountParams,
      query: notificationListQuery,
      response: notificationList,
    },
    async (ctx, { query }) => {
      const { accountId, userId } = scope(ctx);
      const includes = query.includes ?? [];
      const page = query.page ?? 1;
      const { notifications, count, unread_count } = await listNotifications(ctx.deps.knex, accountId, userId, {
        page,
        includeRead: includes.includes("read"),
        includeSnoozed: includes.includes("snoozed"),
        sortOrder: query.sort_order,
      });
      const users = await usersOf(ctx.deps.knex, accountId, [userId]);
      ctx.body = {
        data: { meta: { unread_count, count, current_page: page }, payload: notifications.map((n) => notificationPushData(n, users.get(n.user_id))) },
      };
    },
  );

  router.route(
    {
      authorize: member,
      method: "get",
      path: `${path}/unread_count`,
      summary: "How many notifications are unread (a bare number)",
      params: accountParams,
      response: z.number(),
    },
    async (ctx) => {
      const { accountId, userId } = scope(ctx);
      ctx.body = (await countsOf(ctx.deps.knex, accountId, userId)).unread_count;
    },
  );

  router.route(
    {
      authorize: member,
      method: "post",
      path: `${path}/read_all`,
      summary: "Mark every notification read, or those of one conversation (primary_actor_type Conversation, primary_actor_id)",
      params: accountParams,
      body: readAllBody,
    },
    async (ctx, { body }) => {
      const { accountId, userId } = scope(ctx);
      await readAll(accountId, userId, body.primary_actor_type === "Conversation" ? body.primary_actor_id : undefined);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: member,
      method: "post",
      path: `${path}/destroy_all`,
      summary: "Delete all notifications, or the read ones with type=read",
      params: accountParams,
      body: destroyAllBody,
    },
    async (ctx, { body }) => {
      const { accountId, userId } = scope(ctx);
      await deleteNotifications(accountId, userId, { readOnly: body.type === "read" });
      headOk(ctx);
    },
  );

  const change = (
    summary: string,
    method: "post" | typeof UPDATE,
    suffix: string,
    patch: (body: { snoozed_until?: Date }) => object,
    body?: typeof snoozeBody,
  ) =>
    router.route(
      { authorize: member, method, path: `${path}/:id${suffix}`, summary, params: notificationParams, body, response: notificationRecordResponse },
      async (ctx, input) => {
        const { accountId, userId } = scope(ctx);
        const current = await findNotification(accountId, userId, input.params.id);
        ctx.body = notificationRecord(await changeNotification(current, patch((input.body ?? {}) as { snoozed_until?: Date })));
      },
    );
  change("Mark a notification read", UPDATE, "", () => ({ read_at: new Date() }));
  change("Mark a notification unread", "post", "/unread", () => ({ read_at: null }));
  change("Snooze a notification until snoozed_until", "post", "/snooze", (body) => ({ snoozed_until: body.snoozed_until }), snoozeBody);

  router.route(
    { authorize: member, method: "delete", path: `${path}/:id`, summary: "Delete a notification", params: notificationParams },
    async (ctx, { params }) => {
      const { accountId, userId } = scope(ctx);
      await findNotification(accountId, userId, params.id);
      await deleteNotifications(accountId, userId, { id: params.id });
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: member,
      method: "get",
      path: "/accounts/:account_id/notification_settings",
      summary: "The caller's notification settings",
      params: accountParams,
      response: settingsResponse,
    },
    async (ctx) => {
      const { accountId, userId } = scope(ctx);
      ctx.body = presentSettings(await settingsOf(ctx.deps.knex, accountId, userId));
    },
  );

  router.route(
    {
      authorize: member,
      method: UPDATE,
      path: "/accounts/:account_id/notification_settings",
      summary: "Choose which notification types are e-mailed and pushed",
      params: accountParams,
      body: settingsBody,
      response: settingsResponse,
    },
    async (ctx, { body }) => {
      const { accountId, userId } = scope(ctx);
      ctx.body = presentSettings(await updateSettings(ctx.deps.knex, accountId, userId, body));
    },
  );
}
