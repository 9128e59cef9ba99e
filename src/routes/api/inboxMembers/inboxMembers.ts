import type { Knex } from "knex";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { Inbox } from "../../../models/Inbox";
import { InboxMember } from "../../../models/InboxMember";
import { requireAdministrator } from "../../../policies";
import { findVisibleInbox } from "../../../policies/inboxes";
import { presentInboxMember } from "../../../presenters/inbox";
import { auditActor, recordAudit, snapshot, type AuditActor } from "../../../services/audit";
import { inboxMembersBody, inboxMembersParams } from "./schema";
import { headOk } from "../../../http/headOk";
import { inboxMembersEnvelope } from "../../../schemas/agent";

const AUDITED = ["inbox_id", "user_id"] as const;

/** Membership changes are audited one row each, associated with their inbox, as Chatwoot writes them by hand. */
async function auditMembers(trx: Knex.Transaction, actor: AuditActor, members: InboxMember[], action: "create" | "destroy") {
  for (const member of members) {
    await recordAudit(trx, actor, {
      accountId: member.account_id,
      auditableType: "InboxMember",
      auditableId: member.id,
      action,
      changes: snapshot(member, AUDITED),
      associatedType: "Inbox",
      associatedId: member.inbox_id,
    });
  }
}

async function presentMembers(inbox: Inbox, db?: Knex) {
  return { payload: (await InboxMember.membersOf(inbox.account_id, inbox.id, db)).map(presentInboxMember) };
}

/**
 * Runs a change of the inbox's members under a lock on the inbox, so concurrent changes apply one
 * after the other (no duplicate-member 422, no mixed set), and answers the set as that change left it.
 */
function changeMembers(inbox: Inbox, change: (trx: Knex.Transaction) => Promise<void>) {
  return InboxMember.transaction(async (trx) => {
    await Inbox.lockInAccount(trx, inbox.account_id, inbox.id);
    await change(trx);
    return presentMembers(inbox, trx);
  });
}

/** The inbox named in the body whose members change; user ids must be users of the account. */
async function inboxToChange(ctx: AppContext, inboxId: number, userIds: number[]): Promise<Inbox> {
  const inbox = await Inbox.findInAccount(ctx.state.account!.id, inboxId);
  if (!inbox) throw NotFound();
  await InboxMember.assertAccountUsers(inbox.account_id, userIds);
  return inbox;
}

export function registerInboxMemberRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/inbox_members";

  router.route(
    { method: "get", path: `${path}/:inbox_id`, summary: "List the agents of an inbox", params: inboxMembersParams, response: inboxMembersEnvelope },
    async (ctx, { params }) => {
      ctx.body = await presentMembers(await findVisibleInbox(ctx, params.inbox_id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Add agents to an inbox",
      params: accountParams,
      body: inboxMembersBody,
      response: inboxMembersEnvelope,
    },
    async (ctx, { body }) => {
      const inbox = await inboxToChange(ctx, body.inbox_id, body.user_ids);
      ctx.body = await changeMembers(inbox, async (trx) => {
        await auditMembers(trx, auditActor(ctx), await InboxMember.addMembers(trx, inbox.account_id, inbox.id, body.user_ids), "create");
      });
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path,
      summary: "Make the inbox's agents exactly user_ids",
      params: accountParams,
      body: inboxMembersBody,
      response: inboxMembersEnvelope,
    },
    async (ctx, { body }) => {
      const inbox = await inboxToChange(ctx, body.inbox_id, body.user_ids);
      ctx.body = await changeMembers(inbox, async (trx) => {
        const actor = auditActor(ctx);
        await auditMembers(trx, actor, await InboxMember.removeOthers(trx, inbox.id, body.user_ids), "destroy");
        await auditMembers(trx, actor, await InboxMember.addMembers(trx, inbox.account_id, inbox.id, body.user_ids), "create");
      });
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path, summary: "Remove agents from an inbox", params: accountParams, body: inboxMembersBody },
    async (ctx, { body }) => {
      const inbox = await Inbox.findInAccount(ctx.state.account!.id, body.inbox_id);
      if (!inbox) throw NotFound();
      await changeMembers(inbox, async (trx) => {
        await auditMembers(trx, auditActor(ctx), await InboxMember.removeMembers(trx, inbox.id, body.user_ids), "destroy");
      });
      headOk(ctx);
    },
  );
}
