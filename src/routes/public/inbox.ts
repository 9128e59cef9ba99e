import type { ApiRouter } from "../../http/router";
import { publicInbox } from "../../presenters/publicApi";
import { inboxParams, publicInboxResponse } from "./schema";

export function registerPublicInboxRoutes(router: ApiRouter) {
  router.route(
    { method: "get", path: "/", summary: "The inbox: name, timezone, working hours, CSAT survey", params: inboxParams, response: publicInboxResponse },
    async (ctx) => {
      const { channel, inbox } = ctx.state.apiInbox!;
      ctx.body = publicInbox(channel, inbox);
    },
  );
}
