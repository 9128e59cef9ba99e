import { Readable } from "node:stream";
import type { AppContext } from "../../../http/context";
import type { SchedulingModel } from "../../../models/scheduling/SchedulingModel";
import { notFound } from "../../../scheduling/errors";

/** The scheduling envelope: `{payload}`, lists with `meta.count`; creates answer 201, deletes 204, the rest 200. */
export function ok(ctx: AppContext, payload: unknown, status = 200) {
  ctx.status = status;
  ctx.body = { payload };
}

/**
 * A 200 whose JSON comes in pieces (see calendarBody), each taken when the socket is ready for more,
 * so a body of megabytes is never held whole; its length is not known beforehand (chunked transfer).
 */
export function okJson(ctx: AppContext, pieces: Iterable<string>) {
  ctx.status = 200;
  ctx.type = "application/json";
  ctx.body = Readable.from(bytesOf(pieces));
}

/** Each piece as UTF-8 bytes: the socket would copy a text into room for three bytes a character first. */
function* bytesOf(pieces: Iterable<string>): Generator<Buffer> {
  for (const piece of pieces) yield Buffer.from(piece);
}

export const created = (ctx: AppContext, payload: unknown) => ok(ctx, payload, 201);

export function list(ctx: AppContext, items: readonly unknown[]) {
  ctx.status = 200;
  ctx.body = { payload: items, meta: { count: items.length } };
}

/** The fork's destroy actions answer `head :no_content`. */
export function removed(ctx: AppContext) {
  ctx.status = 204;
  ctx.body = null;
}

/** A row of the account, or 404 NOT_FOUND. */
export async function mustExist<T>(row: Promise<T | undefined> | PromiseLike<T | undefined>, what: string): Promise<T> {
  const found = await row;
  if (!found) throw notFound(what);
  return found;
}

/**
 * A partial update checked against the row as stored and written under its lock: two PATCHes of
 * different fields cannot combine into a row neither was allowed to make (start after end), and a
 * row deleted meanwhile is the usual 404.
 */
export function patchLocked<M extends SchedulingModel>(
  model: (new () => M) & typeof SchedulingModel,
  ctx: AppContext,
  id: number,
  what: string,
  changes: object,
  check: (current: M) => void | Promise<void> = () => undefined,
): Promise<M> {
  return model.transaction(async (trx) => {
    const current = (await model.lockInAccount(trx, ctx.state.account!.id, id, () => notFound(what))) as M;
    await check(current);
    return (await current.$query(trx).patchAndFetch(changes as Partial<M>)) as M;
  });
}

/** Lists with the total that matches and the page shown. */
export function paged(ctx: AppContext, items: readonly unknown[], count: number, page: { page: number; per_page: number }) {
  ctx.status = 200;
  ctx.body = { payload: items, meta: { count, current_page: page.page, per_page: page.per_page } };
}
