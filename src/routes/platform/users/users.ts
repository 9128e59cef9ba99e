import type { Knex } from "knex";
import { ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { idParams } from "../../../http/schemas";
import { User } from "../../../models/User";
import { userPayload } from "../../../services/users";
import { permissible, platformApp } from "../../../policies/platformApps";
import { platformUserCreate, platformUserUpdate, ssoLinkResponse, userTokenResponse } from "./schema";
import { AccessToken } from "../../../models/AccessToken";
import { generateSsoLink } from "../../../services/sso";
import { publicBaseUrl } from "../../../config";
import { headOk } from "../../../http/headOk";
import { platformUserResponse } from "../../../schemas/platformUser";

const present = userPayload;

const find = (id: number) => () => User.query().findById(id);

export function registerPlatformUserRoutes(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/users",
      summary: "Create a user (or answer this app's user with that email)",
      body: platformUserCreate,
      response: platformUserResponse,
    },
    async (ctx: AppContext, { body }) => {
      const app = platformApp(ctx);
      const existing = body.email ? await User.findByEmail(body.email) : undefined;
      if (existing) {
        // Chatwoot's User.from_email hands any existing user, token and all, to whichever app asks;
        // here only the app's own users are answered, and anyone else's email is simply taken.
        if (!(await app.permits("User", existing.id))) throw ValidationError.of("email", "has already been taken");
        ctx.body = await present(existing);
        return;
      }
      ctx.body = await present(await User.createWithToken(body, (user: User, trx?: Knex) => app.permit("User", user.id, trx)));
    },
  );

  router.route({ method: "get", path: "/users/:id", summary: "Get a user", params: idParams, response: platformUserResponse }, async (ctx, { params }) => {
    ctx.body = await present(await permissible(ctx, "User", find(params.id)));
  });

  router.route(
    { method: UPDATE, path: "/users/:id", summary: "Update a user", params: idParams, body: platformUserUpdate, response: platformUserResponse },
    async (ctx, { params, body }) => {
      const user = await permissible(ctx, "User", find(params.id));
      ctx.body = await present(await user.applyUpdate(body));
    },
  );

  // Chatwoot routes `get :login`; clients also POST it.
  for (const method of ["get", "post"] as const) {
    router.route(
      {
        method,
        path: "/users/:id/login",
        summary: "A one-time SSO link that signs the user in to the dashboard (FRONTEND_URL)",
        params: idParams,
        response: ssoLinkResponse,
      },
      async (ctx, { params }) => {
        const user = await permissible(ctx, "User", find(params.id));
        ctx.body = { url: await generateSsoLink(User.knex(), user, publicBaseUrl(ctx.deps.settings)) };
      },
    );
  }

  for (const method of ["post", "get"] as const) {
    router.route(
      { method, path: "/users/:id/token", summary: "The user's api_access_token", params: idParams, response: userTokenResponse },
      async (ctx, { params }) => {
        const user = await permissible(ctx, "User", find(params.id));
        ctx.body = {
          access_token: (await AccessToken.tokenOf("User", user.id)) ?? (await AccessToken.issue("User", user.id)).token,
          expiry: null,
          user: { id: user.id, name: user.name, display_name: user.display_name, email: user.email, pubsub_token: user.pubsub_token },
        };
      },
    );
  }

  router.route({ method: "delete", path: "/users/:id", summary: "Delete a user", params: idParams }, async (ctx, { params }) => {
    await (await permissible(ctx, "User", find(params.id))).destroy();
    headOk(ctx);
  });
}
