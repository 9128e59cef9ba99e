import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ExecutionContext } from "ava";
import puppeteer, { type Browser, type Frame, type Page } from "puppeteer-core";

/** Debian's chromium (.ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Where the widget's screenshot is kept (git-ignored with the rest of .data/). */
export const ARTEFACTS = path.resolve(__dirname, "../../.data/artefacts");

/**
 * A headless Chromium for one test, closed by the test's teardown: its pages hold WebSockets open to
 * the harness's /cable, which the harness's own close (an after hook) would otherwise wait on.
 */
export async function launchBrowser(t: ExecutionContext): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package or set CHROMIUM_PATH`);
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  t.teardown(() => browser.close());
  return browser;
}

/** A site of its own origin (localhost, where the API is 127.0.0.1) whose page carries the embed snippet. */
export async function hostSite(snippet: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>${snippet}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

/** Closes the site once the test ends; the browser keeps its connections to the site alive, which must not hold the close up. */
export function closeSiteAfter(t: ExecutionContext, server: Server): void {
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

export async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector(".cw-holder iframe");
  const frame = await handle!.contentFrame();
  await frame!.waitForSelector("#cw-input");
  return frame!;
}
