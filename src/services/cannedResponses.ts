import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { definedOnly } from "../lib/objects";
import { CannedResponse } from "../models/CannedResponse";
import type { CannedResponseInput } from "../routes/api/cannedResponses/schema";
import { type AuditActor, auditChange } from "./audit";

/** Audited as the audited gem would: every attribute but id and timestamps. */
const AUDITED = ["short_code", "content", "account_id"] as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The account's canned responses; with `search`, those whose short code or content contain it, best
 * first as Chatwoot's order_by_search ranks them (short code prefix, short code, then content).
 */
export async function listCannedResponses(accountId: number, search: string | undefined): Promise<CannedResponse[]> {
  const query = CannedResponse.query().where("account_id", accountId);
  if (search === undefined) return query.orderBy("id");
  const pattern = `%${escapeLike(search)}%`;
  return query
    .where((w) => w.where("short_code", "ilike", pattern).orWhere("content", "ilike", pattern))
    .orderByRaw("CASE WHEN short_code ILIKE ? THEN 1 WHEN short_code ILIKE ? THEN 0.5 WHEN content ILIKE ? THEN 0.2 ELSE 0 END DESC, id", [
      `${escapeLike(search)}%`,
      pattern,
      pattern,
    ]);
}

export async function findCannedResponse(accountId: number, id: number): Promise<CannedResponse> {
  const found = await CannedResponse.query().findOne({ account_id: accountId, id });
  if (!found) throw NotFound();
  return found;
}

/** CannedResponse's validations: short code and content present, the short code unique in the account. */
async function validate(accountId: number, attributes: { short_code?: string; content?: string }, exceptId?: number): Promise<void> {
  const errors: AttributeError[] = [];
  if (!attributes.content?.trim()) errors.push({ attribute: "content", message: fullMessage("content", "can't be blank") });
  if (!attributes.short_code?.trim()) errors.push({ attribute: "short_code", message: fullMessage("short_code", "can't be blank") });
  else {
    const taken = await CannedResponse.query()
      .where({ account_id: accountId, short_code: attributes.short_code })
      .whereNot("id", exceptId ?? 0)
      .first();
    if (taken) errors.push({ attribute: "short_code", message: fullMessage("short_code", "has already been taken") });
  }
  if (errors.length) throw new ValidationError(errors);
}

export async function createCannedResponse(accountId: number, input: CannedResponseInput, actor: AuditActor): Promise<CannedResponse> {
  await validate(accountId, input);
  return CannedResponse.transaction(async (trx) => {
    const created = await CannedResponse.query(trx).insert({ account_id: accountId, short_code: input.short_code!, content: input.content! }).returning("*");
    await auditChange(trx, actor, { accountId, auditableType: "CannedResponse", keys: AUDITED, after: created });
    return created;
  });
}

export async function updateCannedResponse(current: CannedResponse, input: CannedResponseInput, actor: AuditActor): Promise<CannedResponse> {
  const changes = definedOnly(input);
  await validate(current.account_id, { short_code: current.short_code, content: current.content, ...changes }, current.id);
  return CannedResponse.transaction(async (trx) => {
    const before = await CannedResponse.query(trx).findById(current.id).forUpdate().throwIfNotFound();
    const after = await CannedResponse.query(trx).patchAndFetchById(current.id, changes);
    await auditChange(trx, actor, { accountId: current.account_id, auditableType: "CannedResponse", keys: AUDITED, before, after });
    return after;
  });
}

export async function destroyCannedResponse(current: CannedResponse, actor: AuditActor): Promise<void> {
  await CannedResponse.transaction(async (trx) => {
    const [deleted] = (await CannedResponse.query(trx).delete().where({ id: current.id }).returning("*")) as unknown as CannedResponse[];
    if (deleted) await auditChange(trx, actor, { accountId: current.account_id, auditableType: "CannedResponse", keys: AUDITED, before: deleted });
  });
}
