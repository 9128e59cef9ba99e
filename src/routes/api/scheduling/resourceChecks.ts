import type { AppContext } from "../../../http/context";
import { Resource } from "../../../models/scheduling/Resource";
import { invalidAttribute } from "../../../scheduling/errors";

/** Whether any of `ids` is not one of the account's resources. */
export async function anyUnknownResource(ctx: AppContext, ids: readonly number[]): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return false;
  return (await Resource.ofAccount(ctx.state.account!.id).whereIn("id", unique).resultSize()) !== unique.length;
}

/** A record's resource_id must name one of the account's resources: 422, as Rails' belongs_to validation answers. */
export async function requireResource(ctx: AppContext, id: number) {
  if (await anyUnknownResource(ctx, [id])) throw invalidAttribute("resource_id", "must exist");
}
