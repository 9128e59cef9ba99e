/**
 * Chatwoot's config/features.yml: every feature an account can have, and which a new account
 * starts with. Accounts store the names of their enabled features.
 */
export const FEATURE_DEFAULTS: Record<string, boolean> = {
  inbound_emails: true,
  channel_email: true,
  channel_facebook: true,
  channel_twitter: true,
  ip_lookup: false,
  disable_branding: false,
  email_continuity_on_api_channel: false,
  help_center: true,
  agent_bots: true,
  macros: true,
  agent_management: true,
  team_management: true,
  inbox_management: true,
  labels: true,
  custom_attributes: true,
  automations: true,
  canned_responses: true,
  integrations: true,
  voice_recorder: true,
  mobile_v2: false,
  channel_website: true,
  campaigns: true,
  reports: true,
  crm: true,
  auto_resolve_conversations: true,
  custom_reply_email: false,
  custom_reply_domain: false,
  audit_logs: true,
  response_bot: false,
  message_reply_to: false,
  insert_article_in_reply: false,
  inbox_view: false,
  sla: false,
  help_center_embedding_search: false,
  linear_integration: false,
  captain_integration: false,
  custom_roles: false,
  chatwoot_v4: true,
  report_v4: true,
  contact_chatwoot_support_team: true,
  shopify_integration: false,
  search_with_gin: false,
  channel_instagram: true,
  crm_integration: false,
  channel_voice: false,
  notion_integration: false,
  scheduling: true,
  scheduling_finance: true,
};

export const DEFAULT_FEATURES = Object.keys(FEATURE_DEFAULTS).filter((name) => FEATURE_DEFAULTS[name]);

/** Applies a `{feature: bool}` request to an enabled list: truthy enables, anything else disables. */
export function applyFeatureToggles(enabled: readonly string[], toggles: Record<string, unknown>): string[] {
  const result = new Set(enabled);
  for (const [name, value] of Object.entries(toggles)) {
    if (value) result.add(name);
    else result.delete(name);
  }
  return [...result].sort();
}

export function featureObject(enabled: readonly string[]): Record<string, true> {
  return Object.fromEntries([...enabled].sort().map((name) => [name, true as const]));
}
