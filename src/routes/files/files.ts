import Router from "@koa/router";
import contentDisposition from "content-disposition";
import { NotFound } from "../../errors";
import type { AppCustomContext, AppState } from "../../http/context";
import { avatarContentType } from "../../services/avatars";
import { fileStorage } from "../../storage";
import { FILES_PATH, fileUrlSigner } from "../../storage/urls";

/** Types a browser may show in place; anything else downloads, so an uploaded page never runs on our origin. */
const INLINE = /^(image\/(png|jpeg|gif|webp|bmp|heic)|audio\/|video\/|application\/pdf$)/;

/**
 * Downloads of stored files through the signed URLs that payloads carry (data_url, thumb_url). The
 * URL is the whole authorisation, as Active Storage's signed blob URLs are: a forged, altered or
 * expired one, or one for a file since deleted, is an unknown resource. The signed claims say what
 * to serve the bytes as, so any kind of stored file (attachment, thumbnail, avatar) downloads alike.
 */
export function filesRouter() {
  const router = new Router<AppState, AppCustomContext>({ prefix: FILES_PATH });
  // Avatars are public like Chatwoot's: the unguessable key is the URL, and only avatar keys are served this way.
  router.get("/avatars/*key", async (ctx) => {
    const key = String(ctx.params.key);
    const contentType = avatarContentType(key);
    if (!contentType) throw NotFound();
    const object = await fileStorage().get(key);
    if (!object) throw NotFound();
    ctx.type = contentType;
    if (object.size !== undefined) ctx.length = object.size;
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = object.body;
  });
  router.get("/:token/:filename", async (ctx) => {
    const claims = (await fileUrlSigner(ctx.deps.knex)).verify(ctx.params.token!);
    if (!claims) throw NotFound();
    const object = await fileStorage().get(claims.key);
    if (!object) throw NotFound();
    const { contentType, filename } = claims;
    ctx.type = contentType;
    if (object.size !== undefined) ctx.length = object.size;
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.set("Cache-Control", "private, max-age=3600");
    const disposition = INLINE.test(contentType) ? "inline" : "attachment";
    // An ASCII fallback and RFC 5987's filename* in UTF-8, so any name comes back as it was sent.
    ctx.set("Content-Disposition", contentDisposition(filename, { type: disposition }));
    ctx.body = object.body;
  });
  return router;
}
