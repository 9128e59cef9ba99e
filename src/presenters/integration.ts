import type { IntegrationApp } from "../models/IntegrationApp";
import { HOOK_TYPES, type IntegrationHook } from "../models/IntegrationHook";

/** models/_hook.json.jbuilder: status as a boolean, the inbox as {id, name} (null for account hooks). */
export function presentHook(hook: IntegrationHook, inbox: { id: number; name: string } | null) {
  return {
    id: hook.id,
    app_id: hook.app_id,
    status: hook.enabled,
    inbox: inbox ? { id: inbox.id, name: inbox.name } : null,
    account_id: hook.account_id,
    hook_type: HOOK_TYPES[hook.hook_type] ?? "account",
    settings: hook.settings,
  };
}

export type PresentedHook = ReturnType<typeof presentHook>;

/** models/_app.json.jbuilder: the catalogue's keys, whether the account uses the app, and the account's hooks of it. */
export function presentApp(app: IntegrationApp, enabled: boolean, hooks: PresentedHook[]) {
  return {
    id: app.id,
    logo: app.logo,
    i18n_key: app.i18n_key,
    action: app.action,
    hook_type: app.hook_type,
    allow_multiple_hooks: app.allow_multiple_hooks,
    name: app.name,
    description: app.description,
    enabled,
    button: app.action,
    hooks,
  };
}
