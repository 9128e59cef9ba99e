import { ChatWoot } from "@devlikeapro/n8n-nodes-chatwoot/dist/nodes/ChatWoot/ChatWoot.node.js";
import type { INodeProperties, INodePropertyOptions } from "n8n-workflow";

/**
 * The n8n Chatwoot node's operations, read from its own description, and the request n8n's
 * declarative routing makes of one: the operation's method and URL with `{{$parameter["x"]}}` filled
 * in, and every field the user sees sent where its `routing.send` says, with its default unless the
 * user typed something else.
 */
export interface N8nOperation {
  resource: string;
  operation: string;
  method: string;
  url: string;
  fields: INodeProperties[];
}

export interface N8nRequest {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

const properties = new ChatWoot().description.properties;

const shownFor = (property: INodeProperties, resource: string, operation?: string) =>
  property.displayOptions?.show?.resource?.includes(resource) && (!operation || property.displayOptions.show.operation?.includes(operation));

export function n8nOperations(): N8nOperation[] {
  const operations: N8nOperation[] = [];
  for (const selector of properties.filter((p) => p.name === "operation" && p.type === "options")) {
    const resource = String(selector.displayOptions!.show!.resource![0]);
    for (const option of selector.options as INodePropertyOptions[]) {
      const request = option.routing!.request!;
      const fields = properties.filter((p) => p.type !== "notice" && p !== selector && shownFor(p, resource, String(option.value)));
      operations.push({ resource, operation: String(option.value), method: request.method!, url: String(request.url).replace(/^=/, ""), fields });
    }
  }
  return operations;
}

/** What n8n's `={{ ... }}` expressions on these fields compute: the value itself, or a json field parsed. */
function sentValue(field: INodeProperties, value: unknown): unknown {
  const expression = String(field.routing?.send?.value ?? "={{ $value }}");
  if (expression === "={{ JSON.parse($value) }}") return typeof value === "string" ? JSON.parse(value) : value;
  if (expression === "={{ $value }}") return value;
  throw new Error(`unexpected routing expression ${expression} on ${field.name}`);
}

/** Query values as axios (under n8n's httpRequest) writes them: arrays as `key[]`, nulls left out. */
function appendQuery(query: URLSearchParams, key: string, value: unknown) {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(query, `${key}[]`, item);
  else query.append(key, typeof value === "object" ? JSON.stringify(value) : String(value));
}

/** The request for `operation` with the user's `inputs` (by field name) over the fields' defaults. */
export function n8nRequest(operation: N8nOperation, inputs: Record<string, unknown>): N8nRequest {
  const valueOf = (field: INodeProperties) => (field.name in inputs ? inputs[field.name] : field.default);
  const path = operation.url.replace(/\{\{\$parameter\["(\w+)"\]\}\}/g, (_, name: string) => {
    const field = operation.fields.find((f) => f.name === name);
    if (!field) throw new Error(`${operation.operation}: no field ${name}`);
    return encodeURIComponent(String(valueOf(field)));
  });
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined;
  for (const field of operation.fields) {
    const send = field.routing?.send;
    if (!send) continue;
    const value = sentValue(field, valueOf(field));
    if (send.type === "query") appendQuery(query, String(send.property), value);
    else (body ??= {})[String(send.property)] = value;
  }
  const search = query.toString();
  return { method: operation.method, path: search ? `${path}?${search}` : path, body };
}
