import test from "ava";
import { useHarness } from "../support/harness";

const h = useHarness(test);
let doc: any;
test.before(async () => {
  const response = await h.request("GET", "/api-docs/openapi.json");
  if (response.status !== 200) throw new Error(`openapi.json: ${response.status}`);
  doc = response.body;
});

/** A schema with its $ref followed into components. */
function resolve(schema: any): any {
  const ref: string | undefined = schema?.$ref;
  return ref ? doc.components.schemas[ref.replace("#/components/schemas/", "")] : schema;
}
const requestSchema = (path: string, method: string) => resolve(doc.paths[path]?.[method]?.requestBody?.content?.["application/json"]?.schema);

test("the document is OpenAPI 3.1 with the three api_access_token schemes", (t) => {
  t.is(doc.openapi, "3.1.0");
  for (const name of ["userApiKey", "agentBotApiKey", "platformAppApiKey"]) {
    t.like(doc.components.securitySchemes[name], { type: "apiKey", in: "header", name: "api_access_token" });
  }
});

test("it lists the platform and account paths of the foundation with their methods", (t) => {
  const expected: Record<string, string[]> = {
    "/platform/api/v1/accounts": ["post"],
    "/platform/api/v1/accounts/{id}": ["get", "patch", "delete"],
    "/platform/api/v1/accounts/{account_id}/account_users": ["get", "post", "delete"],
    "/platform/api/v1/users": ["post"],
    "/platform/api/v1/users/{id}": ["get", "patch", "delete"],
    "/platform/api/v1/agent_bots": ["get", "post"],
    "/platform/api/v1/agent_bots/{id}": ["get", "patch", "delete"],
    "/api/v1/accounts/{id}": ["get", "patch"],
    "/api/v1/accounts/{account_id}/agent_bots": ["get", "post"],
    "/api/v1/accounts/{account_id}/agent_bots/{id}": ["get", "patch", "delete"],
    "/api/v1/accounts/{account_id}/agent_bots/{id}/reset_access_token": ["post"],
    "/api/v1/accounts/{account_id}/agent_bots/{id}/reset_secret": ["post"],
  };
  for (const [path, methods] of Object.entries(expected)) {
    t.truthy(doc.paths[path], path);
    for (const method of methods) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  t.deepEqual(doc.paths["/platform/api/v1/accounts"].post.security, [{ platformAppApiKey: [] }]);
  t.deepEqual(doc.paths["/api/v1/accounts/{id}"].patch.security, [{ userApiKey: [] }]);
});

test("request bodies carry the zod schemas that validate them", (t) => {
  const accountUpdate = requestSchema("/api/v1/accounts/{id}", "patch");
  t.like(accountUpdate.properties.auto_resolve_after, { minimum: 10, maximum: 1439856 });
  for (const key of [
    "name",
    "locale",
    "domain",
    "support_email",
    "auto_resolve_message",
    "auto_resolve_ignore_waiting",
    "industry",
    "company_size",
    "timezone",
  ]) {
    t.truthy(accountUpdate.properties[key], key);
  }

  const userCreate = requestSchema("/platform/api/v1/users", "post");
  t.deepEqual(Object.keys(userCreate.properties).sort(), ["custom_attributes", "display_name", "email", "name", "password"]);
  t.like(userCreate.properties.password, { minLength: 6, maxLength: 128 });

  const platformBot = requestSchema("/platform/api/v1/agent_bots", "post");
  t.deepEqual(Object.keys(platformBot.properties).sort(), ["account_id", "avatar", "avatar_url", "description", "name", "outgoing_url"]);
  // Routes that take files document their multipart body with the same schema; a file is binary.
  const platformBotOperation = doc.paths["/platform/api/v1/agent_bots"].post;
  t.deepEqual(platformBotOperation.requestBody.content["multipart/form-data"].schema, platformBotOperation.requestBody.content["application/json"].schema);
  t.like(platformBot.properties.avatar, { type: "string", format: "binary" });

  const accountBot = requestSchema("/api/v1/accounts/{account_id}/agent_bots", "post");
  for (const key of ["name", "description", "outgoing_url", "avatar_url", "bot_type", "bot_config"]) t.truthy(accountBot.properties[key], key);

  const platformAccount = requestSchema("/platform/api/v1/accounts", "post");
  t.deepEqual(platformAccount.required, ["name"]);
  const accountUsers = requestSchema("/platform/api/v1/accounts/{account_id}/account_users", "post");
  t.deepEqual(accountUsers.required, ["user_id"]);
  t.deepEqual(accountUsers.properties.role.enum, ["agent", "administrator"]);
});

test("path parameters are documented", (t) => {
  const params = doc.paths["/api/v1/accounts/{account_id}/agent_bots/{id}"].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
  t.deepEqual(params.sort(), ["path:account_id", "path:id"]);
});

test("it lists the reports v2 and saved filter routes", (t) => {
  const expected: Record<string, string[]> = {
    "/api/v2/accounts/{account_id}/reports": ["get"],
    "/api/v2/accounts/{account_id}/reports/summary": ["get"],
    "/api/v2/accounts/{account_id}/reports/bot_summary": ["get"],
    "/api/v2/accounts/{account_id}/reports/conversations": ["get"],
    "/api/v2/accounts/{account_id}/reports/bot_metrics": ["get"],
    "/api/v2/accounts/{account_id}/summary_reports/agent": ["get"],
    "/api/v2/accounts/{account_id}/summary_reports/inbox": ["get"],
    "/api/v2/accounts/{account_id}/summary_reports/team": ["get"],
    "/api/v2/accounts/{account_id}/summary_reports/label": ["get"],
    "/api/v1/accounts/{account_id}/custom_filters": ["get", "post"],
    "/api/v1/accounts/{account_id}/custom_filters/{id}": ["get", "patch", "put", "delete"],
  };
  for (const [path, methods] of Object.entries(expected)) {
    for (const method of methods) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  const metric = doc.paths["/api/v2/accounts/{account_id}/reports"].get.parameters.find((p: { name: string }) => p.name === "metric");
  t.true(metric.schema.enum.includes("avg_first_response_time"));
  const filter = requestSchema("/api/v1/accounts/{account_id}/custom_filters", "post");
  t.truthy(filter, "the saved filter body is documented");
});

test("it lists the teams and conversation extra routes", (t) => {
  const expected: Record<string, string[]> = {
    "/api/v1/accounts/{account_id}/teams": ["get", "post"],
    "/api/v1/accounts/{account_id}/teams/{id}": ["get", "patch", "put", "delete"],
    "/api/v1/accounts/{account_id}/teams/{team_id}/team_members": ["get", "post", "patch", "delete"],
    "/api/v1/accounts/{account_id}/conversations/{id}": ["get", "patch", "put", "delete"],
    "/api/v1/accounts/{account_id}/conversations/{id}/mute": ["post"],
    "/api/v1/accounts/{account_id}/conversations/{id}/unmute": ["post"],
    "/api/v1/accounts/{account_id}/conversations/{id}/unread": ["post"],
    "/api/v1/accounts/{account_id}/conversations/{id}/participants": ["get", "post", "patch", "delete"],
  };
  for (const [path, methods] of Object.entries(expected)) {
    for (const method of methods) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  t.deepEqual(requestSchema("/api/v1/accounts/{account_id}/teams/{team_id}/team_members", "post").required, ["user_ids"]);
  const listParams = doc.paths["/api/v1/accounts/{account_id}/conversations"].get.parameters.map((p: { name: string }) => p.name);
  for (const name of ["q", "sort_by", "team_id", "source_id", "conversation_type", "updated_within"]) t.true(listParams.includes(name), name);
});

test("it lists the profile, agents, labels, canned responses and platform user routes", (t) => {
  const expected: Record<string, string[]> = {
    "/api": ["get"],
    "/api/v1/profile": ["get", "put", "patch"],
    "/api/v1/profile/availability": ["post"],
    "/api/v1/profile/auto_offline": ["post"],
    "/api/v1/accounts/{account_id}/agents": ["get", "post"],
    "/api/v1/accounts/{account_id}/agents/{id}": ["patch", "put", "delete"],
    "/api/v1/accounts/{account_id}/labels": ["get", "post"],
    "/api/v1/accounts/{account_id}/labels/{id}": ["get", "patch", "put", "delete"],
    "/api/v1/accounts/{account_id}/contacts/{id}/labels": ["get", "post"],
    "/api/v1/accounts/{account_id}/canned_responses": ["get", "post"],
    "/api/v1/accounts/{account_id}/canned_responses/{id}": ["patch", "put", "delete"],
    "/api/v1/accounts/{account_id}/inboxes/{id}/agent_bot": ["get"],
    "/api/v1/accounts/{account_id}/contacts/{id}/contact_inboxes": ["post"],
    "/platform/api/v1/accounts": ["get", "post"],
    "/platform/api/v1/users/{id}/login": ["get", "post"],
    "/platform/api/v1/users/{id}/token": ["get", "post"],
    "/auth/sign_in": ["post"],
  };
  for (const [path, methods] of Object.entries(expected)) {
    for (const method of methods) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  t.deepEqual(doc.paths["/api"].get.security, [], "GET /api needs no token");
  const profile = requestSchema("/api/v1/profile", "put");
  t.truthy(profile, "the profile body is documented");
  t.deepEqual(doc.paths["/platform/api/v1/users/{id}/login"].get.security, [{ platformAppApiKey: [] }]);
  t.deepEqual(doc.paths["/api/v1/accounts/{account_id}/agents"].post.security, [{ userApiKey: [] }]);
});

test("it lists contact import and export and their progress, the import as a multipart upload", (t) => {
  for (const path of ["/api/v1/accounts/{account_id}/contacts/import", "/api/v1/accounts/{account_id}/contacts/export"]) t.truthy(doc.paths[path]?.post, path);
  for (const path of ["data_imports", "data_imports/{id}", "data_exports", "data_exports/{id}"])
    t.truthy(doc.paths[`/api/v1/accounts/{account_id}/${path}`]?.get, path);
  t.truthy(doc.paths["/api/v1/accounts/{account_id}/contacts/import"].post.requestBody.content["multipart/form-data"]);
});
