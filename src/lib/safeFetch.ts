// No library fits whole: the address check is node:net's BlockList in the connection's own DNS lookup (below).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** Addresses a webhook may not reach unless private networks are allowed (SSRF protection). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  // Multicast, reserved and broadcast.
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d, which some stacks still route to IPv4.
  ["::", 96],
  // IPv4-translated (SIIT), NAT64, 6to4 and Teredo wrap IPv4 addresses, so they could reach any of the ranges above.
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["2002::", 16],
  ["2001::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  // Site-local: deprecated, but still private where it is routed.
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped IPv6 address, whichever way it was written (::ffff:a.b.c.d, hex, uncompressed). */
function mappedIpv4(address: string): string | undefined {
  // The URL parser writes every IPv6 address in one canonical, compressed, hex form.
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return undefined;
  const [high, low] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

function isPrivate(withZone: string): boolean {
  // A resolver may answer a link-local address with its zone (fe80::1%eth0); the zone says nothing about the range.
  const address = withZone.replace(/%.*$/, "");
  if (isIP(address) !== 6) return PRIVATE.check(address, "ipv4");
  const mapped = mappedIpv4(address);
  return mapped ? PRIVATE.check(mapped, "ipv4") : PRIVATE.check(address, "ipv6");
}

/** A target the service refuses to call: a bad URL or (by policy) a private address. It never gets better on retry. */
export class UnsafeUrlError extends Error {
  readonly name = "UnsafeUrlError";
}

const refused = (host: string, address: string) => new UnsafeUrlError(`Refused: ${host} resolves to a private address (${address})`);

/** Checks scheme and host, and that every address the host resolves to is public unless allowed. */
export async function assertSafeUrl(rawUrl: string, allowPrivateNetworks: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new UnsafeUrlError(`Invalid URL: ${rawUrl}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrlError(`Unsupported URL scheme: ${url.protocol}`);
  if (!url.hostname) throw new UnsafeUrlError("URL has no host");
  if (allowPrivateNetworks) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (err, entries) => (err ? reject(err) : resolve(entries.map((entry) => entry.address)))),
      );
  const blocked = addresses.find(isPrivate);
  if (blocked) throw refused(url.hostname, blocked);
  return url;
}

/**
 * The DNS lookup the connection itself uses: checking the addresses it connects to, rather than a
 * lookup made beforehand, leaves no window for a name to re-resolve to a private address.
 */
function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, entries: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const blocked = allowPrivateNetworks ? undefined : entries.find((entry) => isPrivate(entry.address));
      if (blocked) return callback(refused(hostname, blocked.address), "", 0);
      if (options.all) return callback(null, entries);
      const [first] = entries;
      if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
      return callback(null, first.address, first.family);
    });
  };
}

export interface PostResult {
  status: number;
  statusText: string;
}

export class TimeoutError extends Error {
  readonly name = "TimeoutError";
}

/** Larger responses fail the attempt, as Chatwoot's SafeFetch limits what it reads. */
const MAX_RESPONSE_BYTES = 40 * 1024 * 1024;

/**
 * POSTs `body` to a URL that passes assertSafeUrl, connecting only to addresses that pass it too.
 * Redirects are not followed; the response body is read (up to a limit) and discarded.
 */
export async function safePost(
  rawUrl: string,
  { body, headers, timeoutMs, allowPrivateNetworks }: { body: string; headers: Record<string, string>; timeoutMs: number; allowPrivateNetworks: boolean },
): Promise<PostResult> {
  const url = await assertSafeUrl(rawUrl, allowPrivateNetworks);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    const request = client.request(
      url,
      { method: "POST", headers: { ...headers, "Content-Length": Buffer.byteLength(body) }, lookup: guardedLookup(allowPrivateNetworks) },
      (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) request.destroy(new Error(`Response larger than ${MAX_RESPONSE_BYTES} bytes`));
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? "" }));
        response.on("error", reject);
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new TimeoutError(`Timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}

export interface GetResult {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** A response body larger than the caller's limit: retrying cannot help. */
export class ResponseTooLargeError extends Error {
  readonly name = "ResponseTooLargeError";
}

/**
 * GETs a URL that passes assertSafeUrl, connecting only to addresses that pass it too, and reads
 * the body up to `maxBytes` (more fails with ResponseTooLargeError). Redirects are not followed.
 */
export async function safeGet(
  rawUrl: string,
  {
    timeoutMs,
    maxBytes,
    allowPrivateNetworks,
    headers = {},
  }: { timeoutMs: number; maxBytes: number; allowPrivateNetworks: boolean; headers?: Record<string, string> },
): Promise<GetResult> {
  const url = await assertSafeUrl(rawUrl, allowPrivateNetworks);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<GetResult>((resolve, reject) => {
    const request = client.request(url, { method: "GET", headers, lookup: guardedLookup(allowPrivateNetworks) }, (response) => {
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        request.destroy(new ResponseTooLargeError(`Response of ${declared} bytes is larger than ${maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) request.destroy(new ResponseTooLargeError(`Response larger than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, contentType: response.headers["content-type"], body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.setTimeout(timeoutMs, () => request.destroy(new TimeoutError(`Timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end();
  });
}
