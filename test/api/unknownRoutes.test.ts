import { request as httpRequest } from "node:http";
import test from "ava";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

/** fetch refuses TRACE and some WebDAV verbs, so these go through node:http. */
function send(method: string, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${h.baseUrl}${path}`, { method, headers: token ? { api_access_token: token } : {} }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

test("unknown methods and unknown routes answer 404 as Rails' router does, never 501 or 405", async (t) => {
  const account = await createAccount(h);
  const contacts = `/api/v1/accounts/${account.id}/contacts`;
  const unknownRoute = await send("GET", "/api/v1/no_such_route");
  t.is(unknownRoute.status, 404);
  for (const [method, path] of [
    ["TRACE", contacts],
    ["PROPFIND", contacts],
    ["MKCOL", "/health"],
    ["TRACE", "/health"],
    ["OPTIONS", contacts],
    // A known path with a method it does not take is an unknown route to Rails as well.
    ["DELETE", "/health"],
    ["PATCH", contacts],
  ] as const) {
    const response = await send(method, path, account.admin.token);
    t.is(response.status, 404, `${method} ${path}`);
    t.is(response.body, unknownRoute.body, `${method} ${path}`);
  }
  t.is((await send("GET", contacts, account.admin.token)).status, 200);
  // /health itself may say 503 here (no relay listens in this file), so a route that always answers 200.
  t.is((await send("HEAD", "/api-docs/openapi.json")).status, 200);
});
