import type { Knex } from "knex";
import { CouldNotProcess, NotFound, PermissionDenied } from "../errors";
import { definedOnly } from "../lib/objects";
import type { AutomationAction } from "../models/AutomationRule";
import { loadMembers, type Member } from "../models/InboxMember";
import { Macro, MACRO_ACTION_NAMES, type MacroVisibility } from "../models/Macro";
import { presentMacro } from "../presenters/macro";

/** Who asks: MacroPolicy decides on the user and their role. */
export interface MacroCaller {
  accountId: number;
  userId: number;
  administrator: boolean;
}

export interface MacroInput {
  name?: string | null;
  visibility?: MacroVisibility;
  actions?: AutomationAction[] | null;
}

const author = (macro: Macro, caller: MacroCaller) => Number(macro.created_by_id) === caller.userId;

/** MacroPolicy#show? and #execute?: a global macro, or the caller's own. */
export function mayUse(macro: Macro, caller: MacroCaller): boolean {
  return macro.visibility === "global" || author(macro, caller);
}

/** MacroPolicy#update?: the author, or an administrator on a global macro. */
function mayUpdate(macro: Macro, caller: MacroCaller): boolean {
  return author(macro, caller) || (caller.administrator && macro.visibility === "global");
}

/** MacroPolicy#destroy?: the author, or an administrator on a global macro whose author is no longer in the account. */
async function mayDestroy(macro: Macro, caller: MacroCaller, db: Knex): Promise<boolean> {
  if (author(macro, caller)) return true;
  if (!caller.administrator || macro.visibility !== "global") return false;
  if (macro.created_by_id === null) return true;
  return !(await db("account_users").where({ account_id: caller.accountId, user_id: macro.created_by_id }).first("id"));
}

/** The account's global macros and the caller's personal ones, by id. */
export async function listMacros(caller: MacroCaller): Promise<Macro[]> {
  return Macro.query()
    .where("account_id", caller.accountId)
    .where((w) => w.where("visibility", "global").orWhere("created_by_id", caller.userId))
    .orderBy("id");
}

/** The macro the caller may see or run: 404 when the account has none with that id, 401 when it is another user's personal one. */
export async function findUsableMacro(caller: MacroCaller, id: number): Promise<Macro> {
  const macro = await Macro.query().findOne({ account_id: caller.accountId, id });
  if (!macro) throw NotFound();
  if (!mayUse(macro, caller)) throw PermissionDenied();
  return macro;
}

/** Macro's validations in the automation-rule 422 shape Chatwoot answers them in. */
function validate(macro: { name?: string | null; actions?: AutomationAction[] | null }): void {
  const errors: Record<string, string[]> = {};
  if (!macro.name?.trim()) errors.name = ["can't be blank"];
  const unsupported = (macro.actions ?? []).map((a) => a.action_name).filter((name) => !MACRO_ACTION_NAMES.includes(name));
  if (unsupported.length) errors.actions = [`Macro execution actions ${unsupported.join(",")} not supported.`];
  if (Object.keys(errors).length) throw CouldNotProcess(errors);
}

/** An agent's macro is always personal; an administrator chooses (personal unless said). */
const visibilityFor = (caller: MacroCaller, asked: MacroVisibility | undefined): MacroVisibility | undefined => (caller.administrator ? asked : "personal");

export async function createMacro(caller: MacroCaller, input: MacroInput): Promise<Macro> {
  validate(input);
  return Macro.query()
    .insert({
      account_id: caller.accountId,
      name: input.name!,
      visibility: visibilityFor(caller, input.visibility) ?? "personal",
      actions: input.actions ?? [],
      created_by_id: caller.userId,
      updated_by_id: caller.userId,
    })
    .returning("*");
}

export async function updateMacro(caller: MacroCaller, id: number, input: MacroInput): Promise<Macro> {
  return Macro.transaction(async (trx) => {
    const current = await Macro.lockInAccount(trx, caller.accountId, id);
    if (!mayUpdate(current, caller)) throw PermissionDenied();
    const changes = definedOnly({ name: input.name, actions: input.actions, visibility: visibilityFor(caller, input.visibility) });
    validate({ name: current.name, actions: current.actions, ...changes });
    return Macro.query(trx).patchAndFetchById(id, { ...changes, updated_by_id: caller.userId } as Partial<Macro>);
  });
}

export async function destroyMacro(caller: MacroCaller, id: number): Promise<void> {
  await Macro.transaction(async (trx) => {
    const current = await Macro.lockInAccount(trx, caller.accountId, id);
    if (!(await mayDestroy(current, caller, trx))) throw PermissionDenied();
    await Macro.query(trx).deleteById(id);
  });
}

/** Macros with their authors and last editors as agents of the account (absent once they have left it). */
export async function presentMacros(accountId: number, macros: Macro[]) {
  const ids = [
    ...new Set(
      macros
        .flatMap((m) => [m.created_by_id, m.updated_by_id])
        .filter((id): id is number => id !== null)
        .map(Number),
    ),
  ];
  const byId = new Map<number, Member>((await loadMembers(accountId, ids)).map((member) => [member.user.id, member]));
  const agent = (id: number | null) => (id === null ? undefined : byId.get(Number(id)));
  return macros.map((macro) => presentMacro(macro, agent(macro.created_by_id), agent(macro.updated_by_id)));
}
