import test from "ava";
import { signalsOf } from "../../src/webhooks/handOver";

const at = (ms: number) => ({ event_created_at: new Date(ms) });

test("a bulk change's deliveries go in one signal after those of events as they happen, whatever their order in the batch", (t) => {
  const bulk = Array.from({ length: 50 }, () => at(1000));
  const fresh = [at(2000), at(2001), at(2002)];
  const signals = signalsOf([fresh[0]!, ...bulk.slice(0, 25), fresh[1]!, ...bulk.slice(25), fresh[2]!]);
  t.deepEqual(signals, [fresh, bulk]);
});

test("events as they happen go in signals of at most 20, which the lane takes as live; a transaction of 20 is not a bulk change", (t) => {
  const fresh = Array.from({ length: 45 }, (_, i) => at(3000 + i));
  t.deepEqual(
    signalsOf(fresh).map((signal) => signal.length),
    [20, 20, 5],
  );
  const twenty = Array.from({ length: 20 }, () => at(5000));
  t.deepEqual(signalsOf(twenty), [twenty]);
  t.deepEqual(signalsOf([...twenty, at(5000)]).length, 1, "21 from one transaction: one backlog signal");
});
