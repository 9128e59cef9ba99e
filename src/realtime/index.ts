import type { Server } from "node:http";
import type { Knex } from "knex";
import { uncountConnections } from "./metrics";
import { RealtimeServer, type RealtimeOptions } from "./server";

/*
 * Live updates at /cable (docs/realtime.md): protocol.ts speaks ActionCable, channel.ts checks
 * RoomChannel subscriptions, consumer.ts makes broadcasts of committed events (a relay consumer),
 * broadcaster.ts pushes them to the right subscribers, presence.ts tracks who is online.
 */
export { RealtimeServer, type RealtimeOptions } from "./server";
export { realtimeConsumer } from "./consumer";

const attached = new WeakMap<Server, RealtimeServer>();

/** Serves /cable on the API's HTTP server. */
export async function attachRealtime(server: Server, db: Knex, options?: RealtimeOptions): Promise<RealtimeServer> {
  const realtime = new RealtimeServer(db, options);
  await realtime.start(server);
  attached.set(server, realtime);
  return realtime;
}

/** Closes the server's /cable clients, which an HTTP server's close would otherwise wait for. */
export async function closeRealtime(server: Server): Promise<void> {
  const realtime = attached.get(server);
  if (!realtime) return;
  attached.delete(server);
  uncountConnections(realtime);
  await realtime.close();
}
