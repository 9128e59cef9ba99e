import type { TestAccount } from "../support/factories";
import type { Harness } from "../support/harness";

/** A caller of one account's scheduling API, as its administrator by default. */
export function schedulingApi(h: Harness, account: TestAccount) {
  const base = `/api/v1/accounts/${account.id}/scheduling`;
  const call = (method: string, path: string, body?: unknown, token = account.admin.token) => h.request(method, `${base}${path}`, { token, body });
  return {
    get: (path: string, token?: string) => call("GET", path, undefined, token),
    post: (path: string, body: unknown, token?: string) => call("POST", path, body, token),
    patch: (path: string, body: unknown, token?: string) => call("PATCH", path, body, token),
    delete: (path: string, token?: string) => call("DELETE", path, undefined, token),
    /** Creates and returns the payload, failing loudly if the API refuses. */
    async create(path: string, body: unknown) {
      const response = await call("POST", path, body);
      if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.payload;
    },
  };
}
