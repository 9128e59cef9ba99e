import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "esbuild";

/** A built file the widget pages load: its bytes, type and a validator for conditional requests. */
export interface BundleFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Served under /packs/js/: the SDK the embed snippet loads, the widget frame's script and its styles. */
export type BundleName = "sdk.js" | "widget.js" | "widget.css";

const WEB_ROOT = path.resolve(__dirname, "../../web");
const CONTENT_TYPES: Record<string, string> = { ".js": "application/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

async function buildBundles(): Promise<Map<BundleName, BundleFile>> {
  const result = await build({
    entryPoints: { sdk: path.join(WEB_ROOT, "sdk/index.ts"), widget: path.join(WEB_ROOT, "widget/index.ts") },
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2020"],
    outdir: "/packs",
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const files = new Map<BundleName, BundleFile>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path) as BundleName;
    const body = Buffer.from(file.contents);
    files.set(name, { body, contentType: CONTENT_TYPES[path.extname(name)]!, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` });
  }
  return files;
}

let bundles: Promise<Map<BundleName, BundleFile>> | undefined;

/**
 * The widget's browser code (web/), bundled once per process into memory: at API start, or on the
 * first request for it in a process that did not build at start (tests). Nothing is written to disk.
 */
export function widgetBundles(): Promise<Map<BundleName, BundleFile>> {
  if (!bundles) {
    bundles = buildBundles();
    // A failed build is not remembered: the next request tries again.
    bundles.catch(() => (bundles = undefined));
  }
  return bundles;
}
