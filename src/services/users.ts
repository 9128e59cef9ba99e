import { AccessToken } from "../models/AccessToken";
import { AccountUser } from "../models/AccountUser";
import type { User } from "../models/User";
import { presentPlatformUser } from "../presenters/user";

/** The user partial (api/v1/models/_user and its platform twin) with the token and memberships it shows. */
export async function userPayload(user: User) {
  const [token, memberships] = await Promise.all([AccessToken.tokenOf("User", user.id), AccountUser.membershipsOf(user.id)]);
  return presentPlatformUser(user, token ?? "", memberships);
}
