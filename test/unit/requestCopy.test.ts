import test from "ava";
import { Account } from "../../src/models/Account";
import { requestCopy } from "../../src/auth/authCache";

test("a request's copy of a cached model is the same model, and nothing done to it reaches the cached one", (t) => {
  const cached = Account.fromDatabaseJson({
    id: 7,
    name: "Acme",
    features: ["inbox_management"],
    custom_attributes: { plan: { name: "pro", seats: 3 } },
    created_at: new Date("2026-11-23T10:00:00Z"),
  });
  const copy = requestCopy(cached);

  t.true(copy instanceof Account);
  t.deepEqual(copy.toJSON(), cached.toJSON());

  copy.name = "Renamed";
  copy.features.push("reports");
  (copy.custom_attributes.plan as { seats: number }).seats = 10;
  copy.created_at.setFullYear(2000);
  t.is(cached.name, "Acme");
  t.deepEqual(cached.features, ["inbox_management"]);
  t.deepEqual(cached.custom_attributes, { plan: { name: "pro", seats: 3 } });
  t.is(cached.created_at.toISOString(), "2026-11-23T10:00:00.000Z");
});
