import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

test("GET /public/api/v1/inboxes/{inbox_identifier}: the inbox's name, timezone, working hours and CSAT setting, as Chatwoot serves them", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Help desk", channel: { type: "api", hmac_mandatory: true } });
  await expectOk(
    accountApi(h, account).patch(`/inboxes/${inbox.id}`, { timezone: "Asia/Almaty", working_hours_enabled: true, csat_survey_enabled: true }),
    "inbox settings",
  );

  for (const path of [`/public/api/v1/inboxes/${inbox.inbox_identifier}`, `/public/api/v1/inboxes/${inbox.inbox_identifier}/`]) {
    const response = await h.request("GET", path);
    t.is(response.status, 200, path);
    t.deepEqual(Object.keys(response.body).sort(), [
      "csat_response_visible",
      "csat_survey_enabled",
      "greeting_enabled",
      "identifier",
      "identity_validation_enabled",
      "name",
      "timezone",
      "working_hours",
      "working_hours_enabled",
    ]);
    t.like(response.body, {
      identifier: inbox.inbox_identifier,
      identity_validation_enabled: true,
      name: "Help desk",
      timezone: "Asia/Almaty",
      working_hours_enabled: true,
      csat_survey_enabled: true,
      greeting_enabled: false,
    });
    t.deepEqual(
      response.body.working_hours.map((day: { day_of_week: number }) => day.day_of_week),
      [0, 1, 2, 3, 4, 5, 6],
    );
    t.deepEqual(response.body.working_hours[1], {
      day_of_week: 1,
      closed_all_day: false,
      open_hour: 9,
      open_minutes: 0,
      close_hour: 17,
      close_minutes: 0,
      open_all_day: false,
    });
  }
});

test("an unknown inbox identifier is a 404, as Channel::Api.find_by! answers", async (t) => {
  const response = await h.request("GET", "/public/api/v1/inboxes/no-such-inbox");
  t.is(response.status, 404);
  t.deepEqual(response.body, { error: "Resource could not be found" });
});
