import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { requireMember } from "../../../policies";
import { userIdOf, visibleConversationsByDisplayId } from "../../../policies/conversations";
import { startMacroExecution } from "../../../services/macroExecution";
import { createMacro, destroyMacro, findUsableMacro, listMacros, type MacroCaller, presentMacros, updateMacro } from "../../../services/macros";
import { macroBody, macroEnvelope, macroExecuteBody, macrosEnvelope } from "./schema";

// MacroPolicy: every member may list and create; the rest depends on the macro (services/macros.ts).
const callerOf = (ctx: AppContext): MacroCaller => ({
  accountId: ctx.state.account!.id,
  userId: userIdOf(ctx),
  administrator: ctx.state.membership?.role === "administrator",
});

export function registerMacroRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/macros";
  const one = async (ctx: AppContext, macro: Parameters<typeof presentMacros>[1][number]) => ({
    payload: (await presentMacros(ctx.state.account!.id, [macro]))[0],
  });

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path,
      summary: "The account's global macros and the caller's personal ones",
      params: accountParams,
      response: macrosEnvelope,
    },
    async (ctx) => {
      ctx.body = { payload: await presentMacros(ctx.state.account!.id, await listMacros(callerOf(ctx))) };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "post",
      path,
      summary: "Create a macro (an agent's is always personal)",
      params: accountParams,
      body: macroBody,
      response: macroEnvelope,
    },
    async (ctx, { body }) => {
      ctx.body = await one(ctx, await createMacro(callerOf(ctx), body));
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/:id`,
      summary: "A global macro or one of the caller's",
      params: accountResourceParams,
      response: macroEnvelope,
    },
    async (ctx, { params }) => {
      ctx.body = await one(ctx, await findUsableMacro(callerOf(ctx), params.id));
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a macro: its author, or an administrator on a global one",
      params: accountResourceParams,
      body: macroBody,
      response: macroEnvelope,
    },
    async (ctx, { params, body }) => {
      ctx.body = await one(ctx, await updateMacro(callerOf(ctx), params.id, body));
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a macro: its author, or an administrator on a global one whose author has left",
      params: accountResourceParams,
    },
    async (ctx, { params }) => {
      await destroyMacro(callerOf(ctx), params.id);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "post",
      path: `${path}/:id/execute`,
      summary: "Run the macro's actions, in order, on each conversation (display ids) the caller may see, as the caller: a Temporal workflow",
      params: accountResourceParams,
      body: macroExecuteBody,
    },
    async (ctx, { params, body }) => {
      const caller = callerOf(ctx);
      const macro = await findUsableMacro(caller, params.id);
      const conversations = await visibleConversationsByDisplayId(ctx, body.conversation_ids);
      if (conversations.length) {
        await startMacroExecution(ctx.deps, {
          accountId: caller.accountId,
          macroId: macro.id,
          userId: caller.userId,
          conversationIds: conversations.map((c) => c.id),
        });
      }
      headOk(ctx);
    },
  );
}
