import { z } from "zod";
import { ApiError } from "../../errors";
import { ApiRouter } from "../../http/router";
import { verifyPassword } from "../../lib/tokens";
import { User } from "../../models/User";
import { redeemSsoToken } from "../../services/sso";
import { userPayload } from "../../services/users";
import { platformUserResponse } from "../../schemas/platformUser";

/** devise_token_auth's bad_credentials answer. */
const BadCredentials = () => new ApiError(401, { success: false, errors: ["Invalid login credentials. Please try again."] });

const signInBody = z
  .object({ email: z.string().trim().max(255), password: z.string().max(128).optional(), sso_auth_token: z.string().max(128).optional() })
  .openapi("SignIn");

/**
 * POST /auth/sign_in (Chatwoot's DeviseOverrides::SessionsController): email with a password, or with
 * the one-time token of a platform SSO link (used up on success). Answers `{"data": user}`, whose
 * access_token the dashboard then sends as api_access_token; this service keeps no sessions.
 */
export function authRouter(): ApiRouter {
  const router = new ApiRouter("/auth", { tag: "Auth", security: [] });
  router.route(
    {
      method: "post",
      path: "/sign_in",
      summary: "Sign in with a password or an SSO link's token",
      body: signInBody,
      response: z.object({ data: platformUserResponse }).openapi("SignedIn"),
    },
    async (ctx, { body }) => {
      const user = await User.findByEmail(body.email);
      if (!user) throw BadCredentials();
      if (body.sso_auth_token) {
        if (!(await redeemSsoToken(User.knex(), user.id, body.sso_auth_token))) throw BadCredentials();
      } else if (!body.password || !(await verifyPassword(body.password, user.encrypted_password))) {
        throw BadCredentials();
      } else if (!user.confirmed_at) {
        throw new ApiError(401, {
          success: false,
          errors: [
            `A confirmation email was sent to your account at '${user.email}'. You must follow the instructions in the email before your account can be activated`,
          ],
        });
      }
      ctx.body = { data: await userPayload(user) };
    },
  );
  return router;
}
