import test from "ava";
import { WebSocket } from "ws";
import { useHarness } from "../support/harness";
import { openConversation, postMessage, realtimeWorld, subscribeAgent } from "./world";

// Small limits, so that a test sees them act within seconds.
const h = useHarness(test, {
  relay: { sweepIntervalMs: 500 },
  realtime: { limits: { idleTimeoutMs: 1000, pingIntervalMs: 300, maxBufferedBytes: 4000 } },
});

test("a connection that subscribes to nothing is closed once idle", async (t) => {
  const socket = new WebSocket(`${h.baseUrl.replace("http", "ws")}/cable`, ["actioncable-v1-json"]);
  const started = Date.now();
  const closed = await new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  t.is(closed, 1000);
  t.true(Date.now() - started >= 1000);
});

test("a client that leaves too much unread is dropped, and /metrics counts it", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId } = await openConversation(h, world, world.ownInbox.id);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => admin.close());
  const dropsBefore = Number(/^realtime_slow_clients_dropped_total (\d+)/m.exec((await h.request("GET", "/metrics")).body)?.[1] ?? 0);

  // One push larger than what may wait unread: the server drops the client rather than queue it.
  await postMessage(h, world, displayId, { content: "x".repeat(5000) });
  await admin.disconnected;
  const dropsAfter = Number(/^realtime_slow_clients_dropped_total (\d+)/m.exec((await h.request("GET", "/metrics")).body)?.[1]);
  t.true(dropsAfter > dropsBefore);
  t.false(admin.received.some((pushed) => pushed.event === "message.created" && String(pushed.data.content).length === 5000));
});
