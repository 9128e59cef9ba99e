import { z } from "zod";
import { CouldNotProcess, NotFound, ValidationError } from "../errors";
import { definedOnly } from "../lib/objects";
import { hashPassword, verifyPassword } from "../lib/tokens";
import { parseOrThrow } from "../lib/validation";
import { AccountUser } from "../models/AccountUser";
import { User } from "../models/User";
import type { AvatarAttributes } from "./avatars";
import type { ProfileUpdate } from "../routes/api/profile/schema";
import { password as passwordRule } from "../http/schemas";

/**
 * Chatwoot's password change: the current password must match (422 "Invalid current password"), then
 * the new one must be strong and, when a confirmation is sent, equal to it. Returns the new hash.
 */
async function newPasswordHash(user: User, changes: ProfileUpdate): Promise<string | undefined> {
  if (!changes.password) return undefined;
  if (!(await verifyPassword(changes.current_password ?? "", user.encrypted_password))) throw CouldNotProcess("Invalid current password");
  parseOrThrow(z.object({ password: passwordRule() }), { password: changes.password });
  if (changes.password_confirmation !== undefined && changes.password_confirmation !== changes.password) {
    throw ValidationError.of("password_confirmation", "doesn't match Password");
  }
  return hashPassword(changes.password);
}

/** The membership a profile change of availability applies to: the named account's, or the most recently active. */
async function membershipFor(userId: number, accountId: number | undefined): Promise<AccountUser> {
  const memberships = await AccountUser.membershipsOf(userId);
  const found = accountId ? memberships.find((m) => m.account.id === accountId) : memberships[0];
  if (!found) throw NotFound();
  return found.accountUser;
}

export async function setMembershipFields(userId: number, accountId: number | undefined, fields: Partial<Pick<AccountUser, "availability" | "auto_offline">>) {
  const membership = await membershipFor(userId, accountId);
  await AccountUser.query().patch(fields).where({ id: membership.id });
}

/** PUT /api/v1/profile: the user's own name, email, signature, UI settings, password and availability. */
export async function updateProfile(user: User, changes: ProfileUpdate, stored: AvatarAttributes = {}): Promise<User> {
  const encrypted = await newPasswordHash(user, changes);
  const membership = changes.availability ? await membershipFor(user.id, changes.account_id) : undefined;
  const { name, display_name, email, message_signature, ui_settings, phone_number } = changes;
  return User.transaction(async (trx) => {
    if (email && email.toLowerCase() !== user.email.toLowerCase()) {
      const taken = await User.findByEmail(email, trx);
      if (taken && taken.id !== user.id) throw ValidationError.of("email", "has already been taken");
    }
    const updated = await User.query(trx).patchAndFetchById(user.id, {
      ...definedOnly({ name, display_name, message_signature, ui_settings }),
      ...stored,
      ...(email ? { email, uid: email } : {}),
      ...(encrypted ? { encrypted_password: encrypted } : {}),
      ...(phone_number !== undefined ? { custom_attributes: { ...user.custom_attributes, phone_number } } : {}),
    });
    if (membership) await AccountUser.query(trx).patch({ availability: changes.availability }).where({ id: membership.id });
    return updated;
  });
}

/** ProfilesController#set_active_account: the membership becomes the most recently active one (404 when there is none). */
export async function setActiveAccount(userId: number, accountId: number): Promise<void> {
  const changed = await AccountUser.query().patch({ active_at: new Date() }).where({ user_id: userId, account_id: accountId });
  if (!changed) throw NotFound();
}
