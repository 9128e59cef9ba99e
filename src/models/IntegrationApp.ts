/**
 * The integration apps this service supports (Chatwoot's config/integration/apps.yml, narrowed to
 * what runs here): account webhooks, and dashboard apps kept as hooks. Not a table: the catalogue
 * is code, and an account's configuration of an app is its IntegrationHook rows.
 */
export interface IntegrationApp {
  id: string;
  name: string;
  description: string;
  logo: string;
  i18n_key: string;
  /** The dashboard's settings page for the app (Chatwoot's `action`), when it has one. */
  action: string | null;
  hook_type: "account" | "inbox";
  allow_multiple_hooks: boolean;
}

export const INTEGRATION_APPS: readonly IntegrationApp[] = [
  {
    id: "webhook",
    name: "Webhooks",
    description: "Sends the account's events (conversations, messages, contacts) to URLs of your choice as they happen.",
    logo: "webhooks.png",
    i18n_key: "webhooks",
    action: "/webhook",
    hook_type: "account",
    allow_multiple_hooks: true,
  },
  {
    id: "dashboard_apps",
    name: "Dashboard Apps",
    description: "Shows pages of your own apps beside a conversation, with the conversation and contact passed to them.",
    logo: "dashboard_apps.png",
    i18n_key: "dashboard_apps",
    action: null,
    hook_type: "account",
    allow_multiple_hooks: true,
  },
];

export function findIntegrationApp(id: string): IntegrationApp | undefined {
  return INTEGRATION_APPS.find((app) => app.id === id);
}
