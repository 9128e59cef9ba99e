import type { AppContext } from "./context";

/** Rails' `head :ok`: 200 with an empty body (Koa would otherwise send the text "OK"). */
export function headOk(ctx: AppContext): void {
  ctx.status = 200;
  ctx.body = "";
}
