import type { Knex } from "knex";
import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { idParams } from "../../../http/schemas";
import { User } from "../../../models/User";
import { userPayload } from "../../../services/users";
import { permissible, platformApp } from "../permissible";
import { platformUserCreate, platformUserResponse, platformUserUpdate } from "./schema";
import { headOk } from "../../../http/headOk";

const present = userPayload;

const find = (id: number) => () => User.query().findById(id);

export function registerPlatformUserRoutes(router: ApiRouter) {
  router.route(
    { method: "post", path: "/users", summary: "Create a user (or adopt the user with that email)", body: platformUserCreate, response: platformUserResponse },
    async (ctx: AppContext, { body }) => {
      // Chatwoot's User.from_email: an existing user is handed to this app unchanged.
      const existing = body.email ? await User.findByEmail(body.email) : undefined;
      const permit = (user: User, trx?: Knex) => platformApp(ctx).permit("User", user.id, trx);
      const user = existing ?? (await User.createWithToken(body, permit));
      if (existing) await permit(existing);
      ctx.body = await present(user);
    },
  );

  router.route(
    { method: "get", path: "/users/:id", summary: "Get a user", params: idParams, response: platformUserResponse },
    async (ctx, { params }) => {
      ctx.body = await present(await permissible(ctx, "User", find(params.id)));
    },
  );

  router.route(
    { method: "patch", path: "/users/:id", summary: "Update a user", params: idParams, body: platformUserUpdate, response: platformUserResponse },
    async (ctx, { params, body }) => {
      const user = await permissible(ctx, "User", find(params.id));
      ctx.body = await present(await user.applyUpdate(body));
    },
  );

  router.route(
    { method: "delete", path: "/users/:id", summary: "Delete a user", params: idParams },
    async (ctx, { params }) => {
      await (await permissible(ctx, "User", find(params.id))).destroy();
      headOk(ctx);
    },
  );
}
