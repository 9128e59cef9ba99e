import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { assertSafeUrl, safePost, UnsafeUrlError } from "../../src/lib/safeFetch";
import { loadDeliveryConfig } from "../../src/config";
import { privateNetworkNotice } from "../../src/webhooks/attempt";

test("private, loopback, link-local, multicast and IPv4-wrapping targets are refused unless allowed", async (t) => {
  for (const url of [
    "http://127.0.0.1:8080/x",
    "http://10.1.2.3/x",
    "http://192.168.0.5/x",
    "http://172.20.0.1/x",
    "http://169.254.169.254/latest",
    "http://224.0.0.1/x",
    "http://[::1]/x",
    "http://[fe80::1]/x",
    "http://[64:ff9b::7f00:1]/x",
    "http://[2002:7f00:1::]/x",
    "http://localhost/x",
    // IPv4-compatible, IPv4-translated, site-local and Teredo addresses also reach IPv4 or private hosts.
    "http://[::127.0.0.1]/x",
    "http://[::a9fe:a9fe]/x",
    "http://[::ffff:0:127.0.0.1]/x",
    "http://[::ffff:0:a00:1]/x",
    "http://[fec0::1]/x",
    "http://[feff::1]/x",
    "http://[2001::1]/x",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x",
    "http://[::ffff:127.0.0.1]/x",
  ]) {
    await t.throwsAsync(assertSafeUrl(url, false), { instanceOf: UnsafeUrlError }, url);
    await t.notThrowsAsync(assertSafeUrl(url, true), url);
  }
});

test("public addresses pass; bad URLs and other schemes never do", async (t) => {
  await t.notThrowsAsync(assertSafeUrl("https://93.184.216.34/hook", false));
  // Public IPv6 (Google's resolver) is not caught by the IPv4-wrapping ranges.
  await t.notThrowsAsync(assertSafeUrl("https://[2001:4860:4860::8888]/hook", false));
  await t.throwsAsync(assertSafeUrl("ftp://93.184.216.34/x", true), { instanceOf: UnsafeUrlError });
  await t.throwsAsync(assertSafeUrl("not a url", true), { instanceOf: UnsafeUrlError });
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/hook` };
}

test("safePost sends the body and headers and answers the status; a private host is refused before connecting", async (t) => {
  const received: { body: string; signature?: string }[] = [];
  const { server, url } = await listen((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ body, signature: request.headers["x-test"] as string });
      response.writeHead(418, "I'm a teapot").end("ignored");
    });
  });
  t.teardown(() => server.close());

  const options = { body: '{"a":1}', headers: { "Content-Type": "application/json", "X-Test": "yes" }, timeoutMs: 2000 };
  t.deepEqual(await safePost(url, { ...options, allowPrivateNetworks: true }), { status: 418, statusText: "I'm a teapot" });
  t.deepEqual(received, [{ body: '{"a":1}', signature: "yes" }]);

  await t.throwsAsync(safePost(url, { ...options, allowPrivateNetworks: false }), { instanceOf: UnsafeUrlError });
  t.is(received.length, 1, "nothing reached the private host");
});

test("safePost gives up on a receiver that does not answer within the timeout", async (t) => {
  const { server, url } = await listen(() => undefined);
  t.teardown(() => server.closeAllConnections());
  t.teardown(() => server.close());
  const started = Date.now();
  await t.throwsAsync(safePost(url, { body: "{}", headers: {}, timeoutMs: 300, allowPrivateNetworks: true }), { message: "Timed out after 300 ms" });
  t.true(Date.now() - started < 2000);
});

test("startup says when private networks are reachable: outside production by default, or when allowed", (t) => {
  t.regex(privateNetworkNotice(loadDeliveryConfig({})) ?? "", /private and loopback addresses/);
  t.regex(privateNetworkNotice(loadDeliveryConfig({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" })) ?? "", /WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
  t.is(privateNetworkNotice(loadDeliveryConfig({ NODE_ENV: "production" })), undefined);
  t.is(privateNetworkNotice(loadDeliveryConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "false" })), undefined);
});

test("SAFE_FETCH_ALLOW_PRIVATE_NETWORK, Chatwoot's name for the switch, is honoured; WEBHOOK_ALLOW_PRIVATE_NETWORKS wins when both are set", (t) => {
  t.true(loadDeliveryConfig({ NODE_ENV: "production", SAFE_FETCH_ALLOW_PRIVATE_NETWORK: "true" }).allowPrivateNetworks);
  t.true(loadDeliveryConfig({ NODE_ENV: "production", SAFE_FETCH_ALLOW_PRIVATE_NETWORK: "1" }).allowPrivateNetworks);
  t.false(loadDeliveryConfig({ SAFE_FETCH_ALLOW_PRIVATE_NETWORK: "false" }).allowPrivateNetworks);
  t.false(
    loadDeliveryConfig({ NODE_ENV: "production", SAFE_FETCH_ALLOW_PRIVATE_NETWORK: "true", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "false" }).allowPrivateNetworks,
  );
  t.regex(
    privateNetworkNotice(loadDeliveryConfig({ NODE_ENV: "production", SAFE_FETCH_ALLOW_PRIVATE_NETWORK: "true" })) ?? "",
    /SAFE_FETCH_ALLOW_PRIVATE_NETWORK/,
  );
});
