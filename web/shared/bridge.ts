/**
 * The page ↔ widget frame protocol of Chatwoot's SDK: every message is this prefix and a JSON
 * object naming its event, so the widget frame also answers a page that loads Chatwoot's own SDK.
 */
const PREFIX = "chatwoot-widget:";

export interface BridgeMessage {
  event: string;
  [field: string]: unknown;
}

export function encode(message: BridgeMessage): string {
  return PREFIX + JSON.stringify(message);
}

/** The message, or undefined for anything else posted to the window (other scripts use postMessage too). */
export function decode(data: unknown): BridgeMessage | undefined {
  if (typeof data !== "string" || !data.startsWith(PREFIX)) return undefined;
  try {
    const message = JSON.parse(data.slice(PREFIX.length));
    return message && typeof message.event === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
