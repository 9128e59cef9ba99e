import test from "ava";
import { useHarness } from "../support/harness";
import { conversationWorld } from "../conversations/setup";
import { apiOnOwnQueue, manyConversations, onlyRunResult, runWorkerUntil } from "../support/workflowRuns";
import type { BulkActionResult } from "../../workflows/bulkAction";

const h = useHarness(test);

test("a bulk action on 200 conversations survives its worker stopping mid-run: every conversation once, none twice", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const displayIds = await manyConversations(h, world, 200);
  const api = await apiOnOwnQueue(h, "bulk-restart");
  t.teardown(api.close);
  const status = await api.post(`/api/v1/accounts/${account.id}/bulk_actions`, account.admin.token, {
    type: "Conversation",
    ids: displayIds,
    fields: { status: "pending", assignee_id: account.agent.id },
    labels: { add: ["bulk"] },
  });
  t.is(status, 200);

  const activity = (pattern: string) =>
    h.knex.raw(`(select count(*) from messages m where m.conversation_id = conversations.id and m.message_type = 2 and m.content like ?)::int`, [pattern]);
  const labelled = async () =>
    Number((await h.knex("conversations").where({ account_id: account.id }).whereRaw("'bulk' = any(labels)").count("id as n").first())!.n);
  await runWorkerUntil(await api.startWorker(), async () => (await labelled()) >= 30, "a first part of the conversations to be done");
  const doneBeforeRestart = await labelled();
  t.log(`${doneBeforeRestart} conversations done when the first worker stopped`);
  t.true(doneBeforeRestart < 200, "the worker stopped in the middle of the run");

  const second = await api.startWorker();
  const result = await second.runUntil(onlyRunResult<BulkActionResult>(h.deps.temporal.client, "bulkActionWorkflow", account.id));
  t.is(result.items.length, 200);
  t.true(result.items.every((item) => item.status === "done"));

  const rows = await h
    .knex("conversations")
    .where("conversations.account_id", account.id)
    .select("display_id", "status", "assignee_id", "labels")
    .select(activity("%added bulk").wrap("", " as label_activities"))
    .select(activity("Assigned to %").wrap("", " as assign_activities"))
    .select(activity("%pending%").wrap("", " as status_activities"))
    .select(
      h.knex
        .raw(`(select count(*) from events e where e.conversation_id = conversations.id and e.name = 'conversation_status_changed')::int`)
        .wrap("", " as status_events"),
    );
  t.is(rows.length, 200);
  t.deepEqual(
    rows.filter(
      (c) =>
        c.status !== "pending" ||
        Number(c.assignee_id) !== account.agent.id ||
        c.labels.join() !== "bulk" ||
        c.label_activities !== 1 ||
        c.assign_activities !== 1 ||
        c.status_activities !== 1 ||
        c.status_events !== 1,
    ),
    [],
    "each conversation changed exactly once, with one event and one activity message per change",
  );
});
