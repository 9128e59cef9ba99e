import { z } from "zod";
import type { ApiRouter } from "../../../http/router";
import { InboxMember } from "../../../models/InboxMember";
import { connectedUserIds, liveAvailability } from "../../../realtime/presence";
import { avatarUrlOf } from "../../../services/avatars";
import { websiteTokenQuery } from "../../../schemas/widget";

const widgetInboxMembersResponse = z
  .object({ payload: z.array(z.object({ id: z.number(), name: z.string(), avatar_url: z.string(), availability_status: z.string() })) })
  .openapi("WidgetInboxMembers");

export function registerWidgetInboxMemberRoutes(router: ApiRouter) {
  router.route(
    {
      method: "get",
      path: "/inbox_members",
      summary: "The inbox's agents as a visitor may see them: name, avatar and whether they are online now",
      query: websiteTokenQuery,
      response: widgetInboxMembersResponse,
    },
    async (ctx) => {
      const { inbox } = ctx.state.webWidget!;
      const [members, connected] = await Promise.all([
        InboxMember.membersOf(inbox.account_id, inbox.id, ctx.deps.knex),
        connectedUserIds(ctx.deps.knex, inbox.account_id),
      ]);
      ctx.body = {
        payload: members.map(({ user, accountUser }) => ({
          id: user.id,
          name: user.availableName,
          avatar_url: avatarUrlOf(user),
          availability_status: liveAvailability(accountUser.availability, connected.has(user.id), accountUser.auto_offline),
        })),
      };
    },
  );
}
