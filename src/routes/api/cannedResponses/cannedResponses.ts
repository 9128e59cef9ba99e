import { z } from "zod";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { authorize } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { auditActor } from "../../../services/audit";
import { createCannedResponse, destroyCannedResponse, findCannedResponse, listCannedResponses, updateCannedResponse } from "../../../services/cannedResponses";
import { presentCannedResponse } from "../../../presenters/cannedResponse";
import { cannedResponseBody, cannedResponseQuery, cannedResponseResponse } from "./schema";

/** Chatwoot's CannedResponsesController checks no policy: every member of the account manages them. */
const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

export function registerCannedResponseRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/canned_responses";

  router.route(
    {
      authorize: member,
      method: "get",
      path,
      summary: "List canned responses; `search` matches short code or content",
      params: accountParams,
      query: cannedResponseQuery,
      response: z.array(cannedResponseResponse),
    },
    async (ctx, { query }) => {
      ctx.body = (await listCannedResponses(ctx.state.account!.id, query.search)).map(presentCannedResponse);
    },
  );

  router.route(
    {
      authorize: member,
      method: "post",
      path,
      summary: "Create a canned response",
      params: accountParams,
      body: cannedResponseBody,
      response: cannedResponseResponse,
    },
    async (ctx, { body }) => {
      ctx.body = presentCannedResponse(await createCannedResponse(ctx.state.account!.id, body, auditActor(ctx)));
    },
  );

  router.route(
    {
      authorize: member,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a canned response",
      params: accountResourceParams,
      body: cannedResponseBody,
      response: cannedResponseResponse,
    },
    async (ctx, { params, body }) => {
      const current = await findCannedResponse(ctx.state.account!.id, params.id);
      ctx.body = presentCannedResponse(await updateCannedResponse(current, body, auditActor(ctx)));
    },
  );

  router.route(
    { authorize: member, method: "delete", path: `${path}/:id`, summary: "Delete a canned response", params: accountResourceParams },
    async (ctx, { params }) => {
      await destroyCannedResponse(await findCannedResponse(ctx.state.account!.id, params.id), auditActor(ctx));
      headOk(ctx);
    },
  );
}
