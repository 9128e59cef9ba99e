import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import knexFactory from "knex";
import { createApp } from "../../src/app";
import { loadRateLimits, RATE_LIMIT_ENV, type RateLimits } from "../../src/config";
import { AUTH_FAILURES } from "../../src/middlewares/rateLimits";
import { closeServer } from "../../src/runtime";
import { BlockedAddresses } from "../../src/auth/blockedAddresses";
import type { Harness } from "./harness";

/** The default limits with some set as the environment would set them ("<requests>/<seconds>"). */
export const limits = (overrides: Partial<Record<keyof RateLimits, string>> = {}): RateLimits => {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(overrides)) env[RATE_LIMIT_ENV[key as keyof RateLimits][0]] = value;
  return loadRateLimits(env)!;
};

/** An address no other test uses, so each test starts with clean counters in the shared table. */
export const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export interface Instance {
  send(
    method: string,
    path: string,
    from: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * An API instance of its own, behind a proxy (X-Forwarded-For names the client), with its own
 * connection pool on the suite's database: two of them stand for two API processes.
 */
export async function instance(h: Harness, rateLimits: RateLimits, { mirror = false } = {}): Promise<Instance> {
  const knex = knexFactory({ client: "pg", connection: process.env.DATABASE_URL!, pool: { min: 0, max: 3 } });
  // As `npm start` runs the API: blocked addresses mirrored in the process instead of read per request.
  const blockedAddresses = mirror ? new BlockedAddresses(knex, AUTH_FAILURES, rateLimits.authFailuresPerAddress.points) : undefined;
  await blockedAddresses?.start();
  const server = createApp({ ...h.deps, knex }, { trustProxy: true, rateLimits, blockedAddresses }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async send(method, path, from, { token, body, headers = {} } = {}) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          "x-forwarded-for": from,
          ...(token ? { api_access_token: token } : {}),
          ...(body ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async close() {
      await closeServer(server);
      await blockedAddresses?.stop();
      await knex.destroy();
    },
  };
}

export async function statuses(count: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await send()).status);
  return result;
}
