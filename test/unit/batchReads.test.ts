import test from "ava";
import { BatchReads, type EventRow } from "../../src/events/outbox";

const event = (id: number): EventRow => ({
  id,
  uid: `uid-${id}`,
  account_id: 1,
  name: "message_created",
  payload: {},
  inbox_id: 1,
  conversation_id: id,
  created_at: new Date(),
});

test("a batch's plan and dispatch, and an event of it retried alone, use the batch's read; other events read afresh", async (t) => {
  const reads = new BatchReads<string>();
  const batch = [event(1), event(2), event(3)];
  reads.keep(batch, Promise.resolve("batch"));
  let fresh = 0;
  const readAfresh = () => Promise.resolve(`fresh ${++fresh}`);

  t.is(await reads.of(batch, readAfresh), "batch");
  t.is(await reads.of([batch[1]!], readAfresh), "batch");
  t.is(await reads.of([event(1)], readAfresh), "fresh 1", "the same event claimed again is a new row");
  t.is(await reads.of([batch[0]!, event(4)], readAfresh), "fresh 2", "a read covers a set only if it covered every event of it");
  reads.keep([batch[2]!], Promise.resolve("later"));
  t.is(await reads.of(batch, readAfresh), "fresh 3", "events kept by two reads are read again together");
  t.is(await reads.of([], readAfresh), "fresh 4");
});
