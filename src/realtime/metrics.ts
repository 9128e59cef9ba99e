import { Counter, Gauge } from "prom-client";
import { metrics } from "../lib/metrics";

/** The process's /cable servers (tests run two apps in one process). */
const servers = new Set<{ connectionCount: number }>();

export function countConnections(server: { connectionCount: number }): void {
  servers.add(server);
}

export function uncountConnections(server: { connectionCount: number }): void {
  servers.delete(server);
}

new Gauge({
  name: "realtime_connections",
  help: "Open /cable WebSocket connections of this process",
  registers: [metrics],
  collect() {
    this.set([...servers].reduce((sum, server) => sum + server.connectionCount, 0));
  },
});

export const slowClientsDropped = new Counter({
  name: "realtime_slow_clients_dropped_total",
  help: "/cable clients dropped because they left too much unread",
  registers: [metrics],
});

export const broadcastsPushed = new Counter({
  name: "realtime_pushes_total",
  help: "Events pushed to /cable subscriptions by this process",
  registers: [metrics],
});
