import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { User } from "../../../models/User";
import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import { NO_AVATAR, withUploadedAvatar } from "../../../services/avatars";
import { setActiveAccount, setMembershipFields, updateProfile } from "../../../services/profile";
import { headOk } from "../../../http/headOk";
import { AccessToken } from "../../../models/AccessToken";
import { userPayload } from "../../../services/users";
import { activeAccountUpdate, autoOfflineUpdate, availabilityUpdate, profileUpdate } from "./schema";
import { platformUserResponse } from "../../../schemas/platformUser";

function currentUser(ctx: AppContext): User {
  const principal = ctx.state.principal;
  if (principal?.kind !== "user") throw new Error("profile reached without a user");
  return principal.user;
}

/** The user as stored now (the principal may come from the auth cache). */
async function freshUser(ctx: AppContext): Promise<User> {
  return User.query().findById(currentUser(ctx).id).throwIfNotFound();
}

/** /api/v1/profile (Chatwoot's ProfilesController): the calling user, rendered with the user partial. */
export function registerProfileRoutes(router: ApiRouter) {
  router.route(
    { method: "get", path: "/profile", summary: "The calling user, with their accounts and access token", response: platformUserResponse },
    async (ctx) => {
      ctx.body = await userPayload(await freshUser(ctx));
    },
  );

  router.route(
    {
      method: UPDATE,
      path: "/profile",
      summary: "Update the calling user; a password change needs current_password; an avatar file as multipart",
      multipart: true,
      body: profileUpdate,
      response: platformUserResponse,
    },
    async (ctx, { body: { avatar, ...body } }) => {
      const user = await freshUser(ctx);
      const updated = await withUploadedAvatar(null, "user", avatar, (stored) => updateProfile(user, body, stored));
      // Users belong to no one account: their replaced avatars are queued under account 0.
      await purgeDeletedFilesQuietly(ctx.deps.knex, 0);
      ctx.body = await userPayload(updated);
    },
  );

  router.route(
    {
      method: "post",
      path: "/profile/availability",
      summary: "Set the calling user's availability in an account",
      body: availabilityUpdate,
      response: platformUserResponse,
    },
    async (ctx, { body }) => {
      await setMembershipFields(currentUser(ctx).id, body.account_id, { availability: body.availability });
      ctx.body = await userPayload(await freshUser(ctx));
    },
  );

  router.route(
    {
      method: "post",
      path: "/profile/auto_offline",
      summary: "Set whether the calling user goes offline automatically in an account",
      body: autoOfflineUpdate,
      response: platformUserResponse,
    },
    async (ctx, { body }) => {
      await setMembershipFields(currentUser(ctx).id, body.account_id, { auto_offline: body.auto_offline ?? false });
      ctx.body = await userPayload(await freshUser(ctx));
    },
  );

  router.route({ method: "delete", path: "/profile/avatar", summary: "Remove the calling user's avatar", response: platformUserResponse }, async (ctx) => {
    await updateProfile(await freshUser(ctx), {}, NO_AVATAR);
    await purgeDeletedFilesQuietly(ctx.deps.knex, 0);
    ctx.body = await userPayload(await freshUser(ctx));
  });

  router.route(
    {
      method: "post",
      path: "/profile/reset_access_token",
      summary: "Issue the calling user a new access token (the old one stops working)",
      response: platformUserResponse,
    },
    async (ctx) => {
      await AccessToken.rotate("User", currentUser(ctx).id);
      ctx.body = await userPayload(await freshUser(ctx));
    },
  );

  router.route(
    { method: "put", path: "/profile/set_active_account", summary: "Make one of the calling user's accounts the active one", body: activeAccountUpdate },
    async (ctx, { body }) => {
      await setActiveAccount(currentUser(ctx).id, body.account_id);
      headOk(ctx);
    },
  );
}
