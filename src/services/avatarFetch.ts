import { ApplicationFailure } from "@temporalio/common";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import sharp from "sharp";
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { ResponseTooLargeError, safeGet, UnsafeUrlError } from "../lib/safeFetch";
import { fileStorage } from "../storage";
import { startOnce } from "../temporal/client";
import { type AvatarFetchInput, avatarFetchWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { purgeDeletedFiles } from "./attachments";
import { AVATAR_MAX_BYTES, type AvatarOwner, storeAvatar } from "./avatars";
import { type EventConsumer, type EventRow, recordEvent } from "../events/outbox";
import { currentLogger } from "../lib/logger";

const TABLES = { contact: "contacts", agent_bot: "agent_bots" } as const;
const FETCH_TIMEOUT_MS = 10_000;
/** What sharp reports for the avatar types, as their content types. */
const FORMATS: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

interface AvatarRecord {
  id: number;
  account_id: number | null;
  avatar_url: string | null;
}

/**
 * Records, in the write's transaction, that a contact's or agent bot's avatar_url changed, so the
 * relay starts the fetch of its image (Chatwoot's Avatar::AvatarFromUrlJob). Bots without an
 * account have no outbox to record in and keep showing the URL as given.
 */
export async function requestAvatarFetch(
  trx: Knex.Transaction,
  owner: AvatarFetchInput["owner"],
  before: AvatarRecord | undefined,
  after: AvatarRecord,
): Promise<void> {
  if (!after.avatar_url || after.avatar_url === before?.avatar_url || after.account_id === null) return;
  const payload: AvatarFetchInput = { owner, id: after.id, url: after.avatar_url };
  await recordEvent(trx, { accountId: after.account_id, name: "avatar_url_changed", payload: { ...payload } });
}

export function avatarFetchConsumer(): EventConsumer {
  return {
    async dispatch(deps: AppDeps, events: EventRow[]) {
      await inParallel(
        events.filter((event) => event.name === "avatar_url_changed"),
        DISPATCH_CONCURRENCY,
        async (event) => {
          const input = event.payload as unknown as AvatarFetchInput;
          await startOnce(deps, "avatarFetchWorkflow", {
            workflowId: avatarFetchWorkflowId(deps.temporal.installationId, input.owner, input.id, event.uid),
            work: `avatar of ${input.owner} ${input.id} after event ${event.uid}`,
            args: [{ owner: input.owner, id: input.id, url: input.url }],
            workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
            typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
            staticSummary: `Fetch the avatar of ${input.owner} ${input.id}`,
          });
        },
      );
    },
  };
}

/** A failure no retry can mend (a refused address, a 4xx, not an image, too large). */
const permanent = (message: string) => ApplicationFailure.nonRetryable(message, "AvatarRefused");

/**
 * Fetches an avatar_url through the SSRF-guarded client, checks that the bytes are an image of an
 * avatar type within the size limit, stores it and points the record at it, unless the record's
 * avatar_url has moved on meanwhile. Network trouble and 5xx throw to be retried.
 */
export async function fetchAvatar(db: Knex, { owner, id, url }: AvatarFetchInput, options: { allowPrivateNetworks: boolean }): Promise<{ stored: boolean }> {
  const table = TABLES[owner];
  const current = await db(table).where("id", id).first<AvatarRecord | undefined>("id", "account_id", "avatar_url");
  if (!current || current.avatar_url !== url) return { stored: false };
  let response;
  try {
    response = await safeGet(url, {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: AVATAR_MAX_BYTES,
      allowPrivateNetworks: options.allowPrivateNetworks,
      headers: { accept: "image/*" },
    });
  } catch (err) {
    if (err instanceof UnsafeUrlError || err instanceof ResponseTooLargeError) throw permanent(err.message);
    throw err;
  }
  if (response.status >= 500 || response.status === 408 || response.status === 429) throw new Error(`${url} answered ${response.status}`);
  if (response.status < 200 || response.status >= 300) throw permanent(`${url} answered ${response.status}`);
  const format = await sharp(response.body)
    .metadata()
    .then((meta) => meta.format as string | undefined)
    .catch(() => undefined);
  const contentType = format ? FORMATS[format] : undefined;
  if (!contentType) throw permanent(`${url} is not a jpeg, png, gif or webp image`);

  const key = await storeAvatar(current.account_id, owner as AvatarOwner, { bytes: response.body }, contentType);
  const updated = await db(table).where({ id, avatar_url: url }).update({ avatar_key: key, avatar_fetched_url: url, updated_at: db.fn.now() });
  if (!updated) {
    await fileStorage().delete([key]);
    return { stored: false };
  }
  // The replaced avatar's file was queued by the update.
  await purgeDeletedFiles(db, { accountId: current.account_id ?? 0 }).catch((err) => currentLogger().error({ err }, "Could not remove a replaced avatar"));
  return { stored: true };
}

/** After the last attempt: the URL is remembered as tried, and the record keeps showing it as given. */
export async function markAvatarFetchFailed(db: Knex, { owner, id, url }: AvatarFetchInput): Promise<void> {
  await db(TABLES[owner]).where({ id, avatar_url: url }).update({ avatar_fetched_url: url });
}
