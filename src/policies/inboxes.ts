import { type Sql, sql } from "../db/sql";
import { NotFound, PermissionDenied } from "../errors";
import type { AppContext } from "../http/context";
import { Inbox } from "../models/Inbox";
import { InboxMember } from "../models/InboxMember";

/** Administrators and agent bots see every inbox of the account; agents only the inboxes they belong to. */
function seesEveryInbox(ctx: AppContext): boolean {
  return ctx.state.principal?.kind === "agent_bot" || ctx.state.membership?.role === "administrator";
}

/** Chatwoot's InboxPolicy::Scope: the inboxes of the account the caller may see. */
export function visibleInboxes(ctx: AppContext) {
  const query = Inbox.ofAccount(ctx.state.account!.id);
  if (seesEveryInbox(ctx)) return query;
  const member = memberInboxIdsSql(ctx);
  return query.whereRaw(`inboxes.id in (${member.text})`, member.values as number[]);
}

/** The inboxes an agent belongs to in the account, as a subquery: the one statement of the membership rule. */
function memberInboxIdsSql(ctx: AppContext): Sql {
  return sql`select inbox_id from inbox_members where user_id = ${ctx.state.membership?.user_id ?? 0} and account_id = ${ctx.state.account!.id}`;
}

/**
 * The ids of visibleInboxes as a subquery, so scoping a query by them costs no round trip of its
 * own; written rather than built, as the hot lists take it every time. Undefined for a caller who
 * sees every inbox: every row of the account is then in a visible inbox (for conversations the
 * database holds their inbox to their account), and a subquery naming all of them only made
 * PostgreSQL plan the lists worse.
 */
export function accessibleInboxIdsSql(ctx: AppContext): Sql | undefined {
  if (seesEveryInbox(ctx)) return undefined;
  return sql`select inboxes.id from inboxes where inboxes.account_id = ${ctx.state.account!.id} and inboxes.id in (${memberInboxIdsSql(ctx)})`;
}

/** The account's inbox: 404 when it is not there, 401 when an agent is not one of its members (InboxPolicy#show?). */
export async function findVisibleInbox(ctx: AppContext, id: number): Promise<Inbox> {
  const inbox = await Inbox.findInAccount(ctx.state.account!.id, id);
  if (!inbox) throw NotFound();
  if (!(await canSeeInbox(ctx, inbox))) throw PermissionDenied();
  return inbox;
}

/** Whether the caller may see this inbox, without throwing. */
export async function canSeeInbox(ctx: AppContext, inbox: Pick<Inbox, "id">): Promise<boolean> {
  return seesEveryInbox(ctx) || InboxMember.isMember(inbox.id, ctx.state.membership?.user_id ?? 0);
}

/**
 * An inbox a request names, when it is the account's: an agent who is not one of its members gets
 * 401, as findVisibleInbox answers; a missing inbox is left to the caller to answer in its own way.
 */
export async function refuseUnseenInbox(ctx: AppContext, inboxId: number): Promise<void> {
  if (seesEveryInbox(ctx)) return;
  const inbox = await Inbox.findInAccount(ctx.state.account!.id, inboxId);
  if (inbox && !(await canSeeInbox(ctx, inbox))) throw PermissionDenied();
}
