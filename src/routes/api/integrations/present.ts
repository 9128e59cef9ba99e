import { Inbox } from "../../../models/Inbox";
import type { IntegrationApp } from "../../../models/IntegrationApp";
import { IntegrationHook } from "../../../models/IntegrationHook";
import { Webhook } from "../../../models/Webhook";
import { presentApp, presentHook } from "../../../presenters/integration";

/** Hooks with their inboxes (one query for all of them). */
export async function presentHooks(hooks: IntegrationHook[]) {
  const inboxIds = [...new Set(hooks.flatMap((hook) => (hook.inbox_id ? [hook.inbox_id] : [])))];
  const inboxes = new Map((inboxIds.length ? await Inbox.query().whereIn("id", inboxIds).select("id", "name") : []).map((inbox) => [inbox.id, inbox]));
  return hooks.map((hook) => presentHook(hook, (hook.inbox_id && inboxes.get(hook.inbox_id)) || null));
}

/**
 * Integrations::App#enabled?: the webhook app is in use once the account has a webhook; any other
 * app once the account has a hook of it (this service keeps dashboard apps as hooks).
 */
async function enabledFor(accountId: number, app: IntegrationApp, hooks: IntegrationHook[]): Promise<boolean> {
  if (app.id === "webhook") return Boolean(await Webhook.query().findOne({ account_id: accountId }).select("id"));
  return hooks.length > 0;
}

/** The apps as the account sees them, with the account's hooks of each. */
export async function presentApps(accountId: number, apps: readonly IntegrationApp[]) {
  const hooks = await IntegrationHook.query()
    .where("account_id", accountId)
    .whereIn(
      "app_id",
      apps.map((app) => app.id),
    )
    .orderBy("id");
  const presented = await presentHooks(hooks);
  return Promise.all(
    apps.map(async (app) => {
      const own = hooks.filter((hook) => hook.app_id === app.id);
      return presentApp(
        app,
        await enabledFor(accountId, app, own),
        presented.filter((hook) => hook.app_id === app.id),
      );
    }),
  );
}
