import type { AppDeps } from "../src/deps";
import { fetchAvatar, markAvatarFetchFailed } from "../src/services/avatarFetch";
import type { AvatarFetchInput } from "../src/temporal/contracts";

export function createAvatarFetchActivities({ knex, settings }: AppDeps) {
  // Avatar URLs may reach the same networks webhooks may (WEBHOOK_ALLOW_PRIVATE_NETWORKS).
  const { allowPrivateNetworks } = settings.delivery;
  return {
    fetchAvatar: (input: AvatarFetchInput) => fetchAvatar(knex, input, { allowPrivateNetworks }),
    markAvatarFetchFailed: (input: AvatarFetchInput) => markAvatarFetchFailed(knex, input),
  };
}
