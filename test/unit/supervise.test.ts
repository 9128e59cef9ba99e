import { EventEmitter } from "node:events";
import test from "ava";
import { type Child, supervise } from "../../src/cli/processes";
import { redirectLogs } from "../../src/lib/logger";

/** A child process stand-in that exits when told to (or when signalled). */
class FakeChild extends EventEmitter implements Child {
  alive = true;
  signals: string[] = [];
  kill(signal: NodeJS.Signals) {
    this.signals.push(signal);
    this.exit(null, signal);
  }
  running() {
    return this.alive;
  }
  exit(code: number | null, signal: string | null = null) {
    if (!this.alive) return;
    this.alive = false;
    this.emit("exit", code, signal);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function started(count: number, options: { startupWindowMs: number; shuttingDown?: () => boolean }) {
  const children: FakeChild[] = [];
  const fatal: string[] = [];
  const supervised = supervise(
    "worker",
    count,
    () => {
      const child = new FakeChild();
      children.push(child);
      return child;
    },
    {
      onFatal: (reason) => fatal.push(reason),
      shuttingDown: options.shuttingDown ?? (() => false),
      startupWindowMs: options.startupWindowMs,
      restartDelayMs: 10,
    },
  );
  return { children, fatal, supervised };
}

test.serial("a child that crashes after starting is started again; stop signals every child and waits for them", async (t) => {
  const restore = redirectLogs(() => undefined);
  t.teardown(restore);
  const { children, fatal, supervised } = started(2, { startupWindowMs: 0 });
  t.is(children.length, 2);
  children[0]!.exit(null, "SIGKILL");
  await sleep(50);
  t.is(children.length, 3, "the crashed one is replaced");
  t.deepEqual(fatal, []);
  await supervised.stop();
  t.deepEqual(
    children.map((child) => child.alive),
    [false, false, false],
  );
  t.deepEqual(children[2]!.signals, ["SIGTERM"]);
  await sleep(50);
  t.is(children.length, 3, "nothing starts again once stopping");
});

test.serial("a child that dies while starting stops the service instead of restarting in a loop", async (t) => {
  const { children, fatal } = started(1, { startupWindowMs: 60_000 });
  children[0]!.exit(1);
  await sleep(50);
  t.is(children.length, 1);
  t.is(fatal.length, 1);
  t.regex(fatal[0]!, /worker process 1 exited \(1\) while starting/);
});

test.serial("children that exit while the service shuts down (Ctrl-C reaches them too) are not restarted", async (t) => {
  const { children, fatal } = started(2, { startupWindowMs: 0, shuttingDown: () => true });
  for (const child of children) child.exit(null, "SIGINT");
  await sleep(50);
  t.is(children.length, 2);
  t.deepEqual(fatal, []);
});
