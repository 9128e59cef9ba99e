import { SERVICE_VERSION } from "../config";
import type { Account } from "../models/Account";
import { featureObject } from "../models/accountFeatures";
import { iso, unixSeconds } from "./time";

const ALWAYS_SHOWN = ["plan_name", "subscribed_quantity", "subscription_status", "subscription_ends_on"];
const SHOWN_WHEN_PRESENT = [
  "website",
  "industry",
  "company_size",
  "timezone",
  "logo",
  "referral_source",
  "brand_info",
  "onboarding_step",
  "help_center_generation_id",
  "marked_for_deletion_at",
  "marked_for_deletion_reason",
];

/** The fixed subset of custom attributes Chatwoot's account partial renders, present only when any are set. */
function customAttributes(account: Account): Record<string, unknown> | undefined {
  const attrs = account.custom_attributes ?? {};
  if (Object.keys(attrs).length === 0) return undefined;
  const shown: Record<string, unknown> = {};
  for (const key of ALWAYS_SHOWN) shown[key] = attrs[key] ?? null;
  for (const key of SHOWN_WHEN_PRESENT) if (attrs[key] !== undefined && attrs[key] !== null && attrs[key] !== "") shown[key] = attrs[key];
  return shown;
}

/** The fields both account views share. */
function accountCore(account: Account) {
  return {
    id: account.id,
    name: account.name,
    locale: account.locale,
    domain: account.domain,
    support_email: account.support_email,
    status: account.status,
    features: featureObject(account.features),
  };
}

/** GET/PATCH /api/v1/accounts/:id (app/views/api/v1/models/_account.json.jbuilder). */
export function presentAccount(account: Account) {
  const updated = unixSeconds(account.updated_at);
  return {
    ...accountCore(account),
    settings: account.settings,
    custom_attributes: customAttributes(account),
    created_at: iso(account.created_at),
    cache_keys: { label: updated, inbox: updated, team: updated },
  };
}

/** The show response adds the service version (under Chatwoot's name too, for existing clients). */
export function presentAccountWithVersion(account: Account) {
  return {
    ...presentAccount(account),
    latest_service_version: SERVICE_VERSION,
    latest_chatwoot_version: SERVICE_VERSION,
    subscribed_features: [] as string[],
  };
}

/** Platform API account (app/views/platform/api/v1/models/_account.json.jbuilder). */
export function presentPlatformAccount(account: Account) {
  return { ...accountCore(account), custom_attributes: account.custom_attributes, limits: account.limits };
}
