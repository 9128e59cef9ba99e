import { NonPermissibleResource, NotFound } from "../errors";
import type { AppContext } from "../http/context";
import type { PermissibleType, PlatformApp } from "../models/PlatformApp";

export function platformApp(ctx: AppContext): PlatformApp {
  const principal = ctx.state.principal;
  if (principal?.kind !== "platform_app") throw new Error("platform route reached without a platform app");
  return principal.app;
}

/**
 * PlatformController#validate_platform_app_permissible: the resource must exist (404) and have been
 * created by, or handed to, the calling app (401 "Non permissible resource").
 */
export async function permissible<T extends { id: number }>(ctx: AppContext, type: PermissibleType, find: () => PromiseLike<T | undefined>): Promise<T> {
  const resource = await find();
  if (!resource) throw NotFound();
  if (!(await platformApp(ctx).permits(type, resource.id))) throw NonPermissibleResource();
  return resource;
}
