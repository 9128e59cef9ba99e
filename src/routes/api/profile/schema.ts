import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { availability, avatarUpload, email, id, jsonObject, railsBoolean, wrappedUnder } from "../../../http/schemas";

/**
 * Chatwoot's profile_params and password_params, under `profile` or bare. The password is checked
 * against the current one before its strength, as Chatwoot does, so it is a plain string here.
 */
export const profileUpdate = z
  .preprocess(
    wrappedUnder("profile"),
    z
      .object({
        name: z.string().trim().min(1).max(255),
        display_name: z.string().trim().max(255).nullable(),
        email: email(),
        message_signature: z.string().max(MAX_LENGTH.text).nullable(),
        ui_settings: jsonObject(),
        phone_number: z.string().trim().max(255),
        availability: availability(),
        /** The membership whose availability changes; the most recently active one without it. */
        account_id: id(),
        current_password: z.string().max(MAX_LENGTH.password),
        password: z.string().max(MAX_LENGTH.password),
        password_confirmation: z.string().max(MAX_LENGTH.password),
        /** An image file (multipart only), stored as the user's avatar. */
        avatar: avatarUpload(),
      })
      .partial(),
  )
  .openapi("ProfileUpdate");

export type ProfileUpdate = z.output<typeof profileUpdate>;

export const availabilityUpdate = z
  .preprocess(wrappedUnder("profile"), z.object({ account_id: id(), availability: availability() }))
  .openapi("ProfileAvailability");

export const autoOfflineUpdate = z
  .preprocess(wrappedUnder("profile"), z.object({ account_id: id(), auto_offline: railsBoolean().optional() }))
  .openapi("ProfileAutoOffline");

export const activeAccountUpdate = z.preprocess(wrappedUnder("profile"), z.object({ account_id: id() })).openapi("ProfileActiveAccount");
