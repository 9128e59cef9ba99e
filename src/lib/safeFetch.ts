import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Addresses a webhook may not reach unless private networks are allowed (SSRF protection). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

function isPrivate(address: string): boolean {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  return PRIVATE.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** A target the service refuses to call: a bad URL or (by policy) a private address. It never gets better on retry. */
export class UnsafeUrlError extends Error {
  readonly name = "UnsafeUrlError";
}

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
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  const blocked = addresses.find(isPrivate);
  if (blocked) throw new UnsafeUrlError(`Refused: ${url.hostname} resolves to a private address (${blocked})`);
  return url;
}
