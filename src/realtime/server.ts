import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Knex } from "knex";
import { WebSocketServer } from "ws";
import { Broadcaster } from "./broadcaster";
import { CableConnection, type LiveSubscription } from "./connection";
import { countConnections, slowClientsDropped } from "./metrics";
import { DEFAULT_PRESENCE, type PresenceOptions, PresenceRows, presenceOf } from "./presence";
import { SUBPROTOCOL, disconnect, ping } from "./protocol";

export const CABLE_PATH = "/cable";

export interface RealtimeLimits {
  /** Subscriptions a connection may hold; more are rejected. */
  maxSubscriptions: number;
  /** ActionCable's ping: the client counts a connection silent for twice this as stale. */
  pingIntervalMs: number;
  /** A connection without a subscription this long is closed. */
  idleTimeoutMs: number;
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferedBytes: number;
  /** The largest frame a client may send. */
  maxFrameBytes: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxSubscriptions: 10,
  pingIntervalMs: 3000,
  idleTimeoutMs: 60_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxFrameBytes: 64 * 1024,
};

export interface RealtimeOptions {
  limits?: Partial<RealtimeLimits>;
  presence?: Partial<PresenceOptions>;
}

/** WebSocket pings (which every browser answers) go out every this many ActionCable pings; a peer that missed one is gone. */
const PINGS_PER_LIVENESS_CHECK = 10;

/**
 * The /cable endpoint of an API process: ActionCable's protocol on `ws`, RoomChannel subscriptions,
 * the broadcasts every process is notified of, and presence. Attach it to the HTTP server the API
 * listens on; close it before the server.
 */
export class RealtimeServer {
  readonly limits: RealtimeLimits;
  readonly presence: PresenceRows;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<CableConnection>();
  private readonly byAccount = new Map<number, Set<LiveSubscription>>();
  private readonly broadcaster: Broadcaster;
  private timer?: NodeJS.Timeout;
  private ticks = 0;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head);
  private server?: Server;

  /** Names this process's rows and its LISTEN connection, by which other processes know it is alive. */
  readonly processId = randomUUID();

  constructor(
    readonly db: Knex,
    options: RealtimeOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.presence = new PresenceRows(db, { ...DEFAULT_PRESENCE, ...options.presence }, this.processId, () => this.broadcaster.lastId);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.limits.maxFrameBytes,
      // @rails/actioncable offers its protocol and a sentinel it must not get.
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
    });
    this.broadcaster = new Broadcaster(this);
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  async start(server: Server): Promise<void> {
    await this.broadcaster.start();
    this.presence.start();
    this.timer = setInterval(() => this.tick(), this.limits.pingIntervalMs);
    this.server = server;
    server.on("upgrade", this.onUpgrade);
    countConnections(this);
  }

  /** Tells every client to come back later (they reconnect, to this process or another) and stops. */
  async close(): Promise<void> {
    this.server?.off("upgrade", this.onUpgrade);
    if (this.timer) clearInterval(this.timer);
    const connections = [...this.connections];
    for (const connection of connections) {
      connection.send(disconnect("server_restart", true));
      connection.shutDown();
      connection.socket.close();
    }
    await this.broadcaster.stop();
    await this.presence.stop();
    for (const connection of connections) connection.socket.terminate();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== CABLE_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.connections.add(new CableConnection(ws, this));
    });
  }

  /** Pings every client, checks that peers still answer, and closes idle connections. */
  private tick(): void {
    const checkLiveness = ++this.ticks % PINGS_PER_LIVENESS_CHECK === 0;
    const frame = ping();
    const now = Date.now();
    for (const connection of this.connections) {
      if (connection.idleSince !== undefined && now - connection.idleSince > this.limits.idleTimeoutMs) {
        connection.socket.close(1000, "idle");
        continue;
      }
      if (checkLiveness) {
        if (!connection.alive) {
          connection.socket.terminate();
          continue;
        }
        connection.alive = false;
        connection.socket.ping();
      }
      connection.send(frame);
    }
  }

  forget(connection: CableConnection): void {
    this.connections.delete(connection);
  }

  index(subscription: LiveSubscription): void {
    const { accountId } = subscription.subscriber;
    let set = this.byAccount.get(accountId);
    if (!set) this.byAccount.set(accountId, (set = new Set()));
    set.add(subscription);
  }

  unindex(subscription: LiveSubscription): void {
    const set = this.byAccount.get(subscription.subscriber.accountId);
    set?.delete(subscription);
    if (set && !set.size) this.byAccount.delete(subscription.subscriber.accountId);
  }

  /** The account's subscriptions in this process. */
  subscriptionsOf(accountId: number): ReadonlySet<LiveSubscription> {
    return this.byAccount.get(accountId) ?? new Set();
  }

  get accountsSubscribed(): number[] {
    return [...this.byAccount.keys()];
  }

  /** update_presence: the subscriber is still here; they get the account's presence back. */
  async refreshPresence(subscription: LiveSubscription): Promise<void> {
    await this.presence.heartbeat([subscription.presenceId]);
    await this.sendPresence(subscription);
  }

  /** Sends a subscriber who came back what was broadcast after `cursor`, in order, before anything newer. */
  resume(subscription: LiveSubscription, cursor: number): void {
    this.broadcaster.replay(subscription, cursor);
  }

  async sendPresence(subscription: LiveSubscription): Promise<void> {
    const data = await presenceOf(this.db, subscription.subscriber.accountId, { withContacts: subscription.subscriber.kind === "user" });
    subscription.connection.pushTo(subscription, "presence.update", data);
  }

  slowClientDropped(): void {
    slowClientsDropped.inc();
  }
}
