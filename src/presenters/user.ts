import { createHmac } from "node:crypto";
import { appSettings } from "../config";
import type { Account } from "../models/Account";
import type { AccountUser } from "../models/AccountUser";
import type { User } from "../models/User";
import { iso } from "./time";
import { avatarUrlOf } from "../services/avatars";

export interface UserMembership {
  accountUser: AccountUser;
  account: Account;
}

/** HMAC of the email with the inbox HMAC key, for identity validation in widgets; empty without a key. */
function hmacIdentifier(email: string): string {
  const key = appSettings().inboxHmacKey;
  return key ? createHmac("sha256", key).update(email).digest("hex") : "";
}

function presentMembership({ accountUser, account }: UserMembership) {
  return {
    id: account.id,
    name: account.name,
    status: account.status,
    active_at: iso(accountUser.active_at),
    role: accountUser.role,
    permissions: [accountUser.role],
    availability: accountUser.availability,
    availability_status: accountUser.availability,
    auto_offline: accountUser.auto_offline,
    custom_role_id: null,
    custom_role: null,
  };
}

/**
 * The platform user payload. `account_id` and `role` come from the most recently active membership,
 * as Chatwoot's active_account_user.
 */
export function presentPlatformUser(user: User, accessToken: string, memberships: UserMembership[]) {
  const active = memberships[0];
  return {
    id: user.id,
    access_token: accessToken,
    account_id: active?.account.id ?? null,
    available_name: user.availableName,
    avatar_url: avatarUrlOf(user),
    confirmed: Boolean(user.confirmed_at),
    display_name: user.display_name,
    message_signature: user.message_signature,
    email: user.email,
    hmac_identifier: hmacIdentifier(user.email),
    inviter_id: active?.accountUser.inviter_id ?? null,
    name: user.name,
    provider: user.provider,
    pubsub_token: user.pubsub_token,
    role: active?.accountUser.role ?? null,
    ui_settings: user.ui_settings,
    uid: user.uid,
    type: user.type,
    ...(Object.keys(user.custom_attributes ?? {}).length ? { custom_attributes: user.custom_attributes } : {}),
    accounts: memberships.map(presentMembership),
  };
}

/** Platform account_users rows render as raw records. */
export function presentAccountUser(accountUser: AccountUser) {
  return {
    id: accountUser.id,
    account_id: accountUser.account_id,
    user_id: accountUser.user_id,
    role: accountUser.role,
    inviter_id: accountUser.inviter_id,
    active_at: iso(accountUser.active_at),
    availability: accountUser.availability,
    auto_offline: accountUser.auto_offline,
    created_at: iso(accountUser.created_at),
    updated_at: iso(accountUser.updated_at),
  };
}
