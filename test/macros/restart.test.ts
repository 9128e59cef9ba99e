import test from "ava";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { conversationWorld } from "../conversations/setup";
import { apiOnOwnQueue, manyConversations, onlyRunResult, runWorkerUntil } from "../support/workflowRuns";
import type { MacroExecutionResult } from "../../workflows/macroExecution";

const h = useHarness(test);

test("a macro on 200 conversations survives its worker stopping mid-run: every conversation once, none twice", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const displayIds = await manyConversations(h, world, 200);
  const macro = (
    await expectOk(
      accountApi(h, account).post("/macros", {
        name: "Flag",
        actions: [
          { action_name: "add_private_note", action_params: ["Flagged by macro"] },
          { action_name: "add_label", action_params: ["flagged"] },
          { action_name: "change_priority", action_params: ["high"] },
        ],
      }),
      "macro",
    )
  ).payload;
  const api = await apiOnOwnQueue(h, "macro-restart");
  t.teardown(api.close);
  t.is(await api.post(`/api/v1/accounts/${account.id}/macros/${macro.id}/execute`, account.admin.token, { conversation_ids: displayIds }), 200);

  const notes = async () => Number((await h.knex("messages").where({ account_id: account.id, content: "Flagged by macro" }).count("id as n").first())!.n);
  await runWorkerUntil(await api.startWorker(), async () => (await notes()) >= 30, "a first part of the conversations to be done");
  const doneBeforeRestart = await notes();
  t.log(`${doneBeforeRestart} conversations done when the first worker stopped`);
  t.true(doneBeforeRestart < 200, "the worker stopped in the middle of the run");

  const second = await api.startWorker();
  const result = await second.runUntil(onlyRunResult<MacroExecutionResult>(h.deps.temporal.client, "macroExecutionWorkflow", account.id));
  t.true(result.ran);
  t.is(result.conversations.length, 200);
  t.true(result.conversations.every((c) => c.status === "done"));

  t.is(await notes(), 200);
  const perConversation = await h
    .knex("conversations")
    .where("conversations.account_id", account.id)
    .select("conversations.display_id", "conversations.priority")
    .select(h.knex.raw("(select count(*) from messages m where m.conversation_id = conversations.id and m.content = 'Flagged by macro')::int as notes"))
    .select(
      h.knex.raw(
        "(select count(*) from messages m where m.conversation_id = conversations.id and m.message_type = 2 and m.content like '%added flagged')::int as label_activities",
      ),
    )
    .select(
      h.knex.raw(
        "(select count(*) from messages m where m.conversation_id = conversations.id and m.message_type = 2 and m.content like '%priority%')::int as priority_activities",
      ),
    );
  t.is(perConversation.length, 200);
  t.deepEqual(
    perConversation.filter((c) => c.notes !== 1 || c.label_activities !== 1 || c.priority_activities !== 1 || c.priority !== "high"),
    [],
    "each conversation got its note, label and priority exactly once",
  );
});
