/**
 * The ActionCable JSON protocol (actioncable-v1-json) as @rails/actioncable speaks it: the server
 * says welcome, pings, confirms or rejects subscriptions and pushes messages; the client subscribes,
 * unsubscribes and sends channel actions.
 */
export const SUBPROTOCOL = "actioncable-v1-json";

export type ClientCommand =
  { command: "subscribe" | "unsubscribe"; identifier: string } | { command: "message"; identifier: string; data: Record<string, unknown> };

/** A client frame, or null for anything that is not one (ActionCable logs and ignores those). */
export function parseCommand(raw: string): ClientCommand | null {
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!frame || typeof frame !== "object") return null;
  const { command, identifier, data } = frame as Record<string, unknown>;
  if (typeof identifier !== "string") return null;
  if (command === "subscribe" || command === "unsubscribe") return { command, identifier };
  if (command !== "message") return null;
  let parsed: unknown = data;
  if (typeof data === "string") {
    try {
      parsed = JSON.parse(data);
    } catch {
      return null;
    }
  }
  return parsed && typeof parsed === "object" ? { command, identifier, data: parsed as Record<string, unknown> } : null;
}

/** The identifier's parameters (it is itself a JSON string), or null when it is not an object. */
export function parseIdentifier(identifier: string): Record<string, unknown> | null {
  try {
    const params: unknown = JSON.parse(identifier);
    return params && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const welcome = () => JSON.stringify({ type: "welcome" });
export const ping = () => JSON.stringify({ type: "ping", message: Math.floor(Date.now() / 1000) });
export const confirmation = (identifier: string) => JSON.stringify({ identifier, type: "confirm_subscription" });
export const rejection = (identifier: string) => JSON.stringify({ identifier, type: "reject_subscription" });
export const disconnect = (reason: "server_restart" | "invalid_request" | "unauthorized", reconnect: boolean) =>
  JSON.stringify({ type: "disconnect", reason, reconnect });
export const push = (identifier: string, message: unknown) => JSON.stringify({ identifier, message });
