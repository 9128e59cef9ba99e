import type { WebSocket } from "ws";
import { logger } from "../lib/logger";
import { authorizeRoom, type Subscriber } from "./channel";
import { confirmation, parseCommand, parseIdentifier, push, rejection, welcome } from "./protocol";
import type { RealtimeServer } from "./server";

const log = logger.child({ component: "realtime" });

/** A confirmed subscription of a connection: who it is, and its presence row. */
export interface LiveSubscription {
  connection: CableConnection;
  identifier: string;
  subscriber: Subscriber;
  presenceId: string;
}

/**
 * One /cable client: its subscriptions, what it last did, and the one way anything is sent to it,
 * which drops a client that does not read what it is sent.
 */
export class CableConnection {
  readonly subscriptions = new Map<string, LiveSubscription>();
  /** Subscriptions being checked: they count against the limit too. */
  private pending = new Set<string>();
  /** When the connection last had no subscription (undefined while it has one). */
  idleSince: number | undefined = Date.now();
  /** Whether the peer answered the last WebSocket ping. */
  alive = true;
  private closed = false;

  constructor(
    readonly socket: WebSocket,
    private readonly server: RealtimeServer,
  ) {
    socket.on("message", (raw, isBinary) => {
      if (!isBinary) void this.handle(raw.toString()).catch((err) => log.warn({ err }, "realtime command failed"));
    });
    socket.on("pong", () => (this.alive = true));
    socket.on("close", () => void this.closeDown());
    socket.on("error", () => socket.terminate());
    this.send(welcome());
  }

  /**
   * Sends a frame unless the client is too far behind: then it is dropped (it reconnects, and loads
   * what it missed), so a slow reader never makes the process hold an unbounded queue for it.
   */
  send(frame: string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount + frame.length > this.server.limits.maxBufferedBytes) {
      this.server.slowClientDropped();
      this.socket.terminate();
      return;
    }
    this.socket.send(frame);
  }

  pushTo(subscription: LiveSubscription, event: string, data: unknown): void {
    this.send(push(subscription.identifier, { event, data }));
  }

  private async handle(raw: string): Promise<void> {
    const command = parseCommand(raw);
    if (!command) return;
    if (command.command !== "message") return command.command === "subscribe" ? this.subscribe(command.identifier) : this.unsubscribe(command.identifier);
    const subscription = this.subscriptions.get(command.identifier);
    if (subscription && command.data.action === "update_presence") await this.server.refreshPresence(subscription);
  }

  private async subscribe(identifier: string): Promise<void> {
    // Subscribing twice to one identifier does nothing, as in ActionCable.
    if (this.subscriptions.has(identifier) || this.pending.has(identifier)) return;
    if (this.subscriptions.size + this.pending.size >= this.server.limits.maxSubscriptions) return this.send(rejection(identifier));
    this.pending.add(identifier);
    try {
      const params = parseIdentifier(identifier);
      const subscriber = params && (await authorizeRoom(this.server.db, params));
      if (!subscriber || this.closed) return this.send(rejection(identifier));
      const cursor = await this.server.presence.resumePoint(subscriber);
      const presenceId = await this.server.presence.join(subscriber);
      const subscription: LiveSubscription = { connection: this, identifier, subscriber, presenceId };
      if (this.closed) return void (await this.server.presence.leave(presenceId, { resumable: true }));
      this.subscriptions.set(identifier, subscription);
      this.idleSince = undefined;
      this.server.index(subscription);
      this.send(confirmation(identifier));
      if (cursor !== null) this.server.resume(subscription, cursor);
      await this.server.sendPresence(subscription);
    } finally {
      this.pending.delete(identifier);
    }
  }

  private async unsubscribe(identifier: string): Promise<void> {
    const subscription = this.subscriptions.get(identifier);
    if (!subscription) return;
    this.subscriptions.delete(identifier);
    if (!this.subscriptions.size) this.idleSince = Date.now();
    this.server.unindex(subscription);
    await this.server.presence.leave(subscription.presenceId, { resumable: false });
  }

  /**
   * The server is stopping: the connection is forgotten at once, and its presence rows are left to
   * the server's own ending of them (PresenceRows.stop), so that no query outlives the server.
   */
  shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    this.server.forget(this);
    for (const subscription of this.subscriptions.values()) this.server.unindex(subscription);
    this.subscriptions.clear();
  }

  /** Forgets the connection's subscriptions once its socket has closed. */
  private async closeDown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.server.forget(this);
    const subscriptions = [...this.subscriptions.values()];
    this.subscriptions.clear();
    for (const subscription of subscriptions) this.server.unindex(subscription);
    await Promise.all(subscriptions.map((s) => this.server.presence.leave(s.presenceId, { resumable: true }).catch(() => undefined)));
  }
}
