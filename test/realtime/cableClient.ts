import { adapters, type Consumer, createConsumer, type Subscription } from "@rails/actioncable";
import { WebSocket } from "ws";

/*
 * @rails/actioncable, the client Chatwoot's dashboard and widget use, in Node: its documented
 * adapters take ws's WebSocket, and its connection monitor's page-visibility listener gets a no-op
 * (Node has no document).
 */
adapters.WebSocket = WebSocket as unknown as typeof adapters.WebSocket;
const page = globalThis as unknown as { addEventListener?: () => void; removeEventListener?: () => void };
page.addEventListener ??= () => undefined;
page.removeEventListener ??= () => undefined;

export interface Pushed {
  event: string;
  data: any;
}

export interface CableSubscription {
  consumer: Consumer;
  subscription: Subscription;
  /** Everything pushed so far, oldest first. */
  received: Pushed[];
  /** Resolves when confirmed (true) or rejected (false). */
  outcome: Promise<boolean>;
  /** Resolves when the connection is first lost (ActionCable then reconnects by itself). */
  disconnected: Promise<void>;
  /** The first push of this event that passes the test, received already or waited for. */
  next(event: string, test?: (data: any) => boolean, options?: { timeoutMs?: number }): Promise<Pushed>;
  close(): void;
}

/** Subscribes to RoomChannel at the server's /cable with these identifier parameters. */
export function subscribeRoom(baseUrl: string, params: Record<string, unknown>): CableSubscription {
  const consumer = createConsumer(`${baseUrl.replace(/^http/, "ws")}/cable`);
  const received: Pushed[] = [];
  const waiters: (() => void)[] = [];
  let settle: (confirmed: boolean) => void = () => undefined;
  const outcome = new Promise<boolean>((resolve) => (settle = resolve));
  let lost: () => void = () => undefined;
  const disconnected = new Promise<void>((resolve) => (lost = resolve));
  const subscription = consumer.subscriptions.create(
    { channel: "RoomChannel", ...params },
    {
      connected: () => settle(true),
      rejected: () => settle(false),
      disconnected: () => lost(),
      received: (message: Pushed) => {
        received.push(message);
        for (const wake of waiters.splice(0)) wake();
      },
    },
  );
  const next = (event: string, test: (data: any) => boolean = () => true, { timeoutMs = 20_000 } = {}) =>
    new Promise<Pushed>((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => r.event))}`)),
        timeoutMs,
      );
      const look = () => {
        const found = received.find((message) => message.event === event && test(message.data));
        if (found) {
          clearTimeout(deadline);
          resolve(found);
        } else waiters.push(look);
      };
      look();
    });
  return { consumer, subscription, received, outcome, disconnected, next, close: () => consumer.disconnect() };
}
