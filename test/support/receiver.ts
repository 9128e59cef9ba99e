import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
  receivedAt: number;
}

/**
 * A real HTTP receiver on loopback. `respond` decides each answer's status from the request number
 * (1-based), so a test can script "500, 500, then 200".
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private server?: Server;
  private waiters: (() => void)[] = [];

  constructor(private respond: (attempt: number, request: ReceivedRequest) => number = () => 200) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        const request = { headers: req.headers, rawBody, body: JSON.parse(rawBody || "null"), receivedAt: Date.now() };
        this.requests.push(request);
        res.statusCode = this.respond(this.requests.length, request);
        res.end("ok");
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    return this;
  }

  setResponder(respond: (attempt: number, request: ReceivedRequest) => number) {
    this.respond = respond;
  }

  /** Resolves once `predicate` holds for the requests received so far (or rejects after timeoutMs). */
  async waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Receiver: condition not met after ${timeoutMs} ms (${this.requests.length} requests)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections?.();
  }
}

/** How a receiver checks the signature (docs/events-and-webhooks.md). */
export function signatureValid(request: ReceivedRequest, secret: string): boolean {
  const timestamp = request.headers["x-chatwoot-timestamp"];
  const signature = request.headers["x-chatwoot-signature"];
  if (typeof timestamp !== "string" || typeof signature !== "string" || !signature.startsWith("sha256=")) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${request.rawBody}`).digest();
  const given = Buffer.from(signature.slice("sha256=".length), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
