import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import sharp from "sharp";
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { Attachment, FILE_TYPES } from "../models/Attachment";
import { fileStorage } from "../storage";
import { thumbnailKey } from "../storage/keys";
import { startOnce } from "../temporal/client";
import { attachmentAnalysisWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { THUMBNAIL_SIZE, THUMBNAIL_TYPE } from "./attachments";
import type { EventConsumer, EventRow } from "../events/outbox";

/** A message_created event whose message has images still to measure. */
function hasImages(event: EventRow): boolean {
  if (event.name !== "message_created") return false;
  const attachments = event.payload.attachments;
  return Array.isArray(attachments) && attachments.some((a) => (a as { file_type?: unknown }).file_type === "image");
}

/**
 * Measures new images and makes their thumbnails off the request path, as Chatwoot's Active
 * Storage analysis job does: one workflow per message_created event that carries images.
 */
export function attachmentAnalysisConsumer(): EventConsumer {
  return {
    async dispatch(deps: AppDeps, events: EventRow[]) {
      await inParallel(events.filter(hasImages), DISPATCH_CONCURRENCY, (event) =>
        startOnce(deps, "attachmentAnalysisWorkflow", {
          workflowId: attachmentAnalysisWorkflowId(deps.temporal.installationId, event.account_id, event.uid),
          work: `image analysis of message ${Number(event.payload.id)} after event ${event.uid}`,
          args: [Number(event.payload.id)],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
          staticSummary: `Measure the images of message ${Number(event.payload.id)} and make their thumbnails`,
        }),
      );
    },
  };
}

/** Reads a stored file into memory (images are bounded by the upload limit). */
async function readStored(key: string): Promise<Buffer | undefined> {
  const object = await fileStorage().get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Width, height and a thumbnail of an image; undefined for bytes that are no image sharp can read. */
async function analyze(bytes: Buffer): Promise<{ width: number; height: number; thumbnail: Buffer } | undefined> {
  try {
    // rotate() applies the EXIF orientation, so dimensions and thumbnail are as people see the image.
    const image = sharp(bytes, { failOn: "error" }).rotate();
    const { width, height, orientation } = await image.metadata();
    if (!width || !height) return undefined;
    const upright = orientation && orientation >= 5 ? { width: height, height: width } : { width, height };
    const thumbnail = await image.resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).png().toBuffer();
    return { ...upright, thumbnail };
  } catch {
    return undefined;
  }
}

/**
 * Measures the message's images not yet analysed and stores their thumbnails. An image that cannot
 * be read is marked analysed without dimensions (as Active Storage leaves its metadata empty);
 * a storage failure throws, so the activity retries.
 */
export async function analyzeMessageImages(db: Knex, messageId: number): Promise<{ analyzed: number }> {
  const images = await Attachment.query(db)
    .where({ message_id: messageId, file_type: FILE_TYPES.indexOf("image") })
    .whereNull("analyzed_at");
  let analyzed = 0;
  for (const image of images) {
    const bytes = await readStored(image.storage_key);
    const result = bytes ? await analyze(bytes) : undefined;
    const thumbKey = result ? thumbnailKey(image.storage_key) : null;
    if (result) await fileStorage().put(thumbKey!, { bytes: result.thumbnail }, THUMBNAIL_TYPE);
    const updated = await db("attachments")
      .where({ id: image.id })
      .whereNull("analyzed_at")
      .update({ width: result?.width ?? null, height: result?.height ?? null, thumb_key: thumbKey, analyzed_at: db.fn.now(), updated_at: db.fn.now() });
    // The message went while we worked: its thumbnail must not outlive it.
    if (!updated && thumbKey) await fileStorage().delete([thumbKey]);
    analyzed += updated;
  }
  return { analyzed };
}
