import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { schedulingApi } from "./support";

const h = useHarness(test);
let account: TestAccount;
let api: ReturnType<typeof schedulingApi>;
test.before(async () => {
  account = await createAccount(h);
  api = schedulingApi(h, account);
});

test("services: create with prices; PATCH prices upserts listed resources and removes the rest", async (t) => {
  const a = await api.create("/resources", { name: "A" });
  const b = await api.create("/resources", { name: "B" });
  const c = await api.create("/resources", { name: "C" });
  const create = await api.post("/services", {
    name: "Consultation",
    category: "therapy",
    base_price: 10000,
    duration_min: 45,
    prices: [
      { resource_id: a.id, price: 12000 },
      { resource_id: b.id, price: 15000, compensation_type: "fixed", compensation_value: 5000 },
    ],
  });
  t.is(create.status, 201);
  const service = create.body.payload;
  t.like(service, { account_id: account.id, name: "Consultation", category: "therapy", direction: null, base_price: 10000, duration_min: 45, active: true });
  t.deepEqual(
    service.prices.map((p: Record<string, unknown>) => ({ ...p, id: undefined })),
    [
      { id: undefined, resource_id: a.id, price: 12000, compensation_type: "percent", compensation_value: 0, active: true },
      { id: undefined, resource_id: b.id, price: 15000, compensation_type: "fixed", compensation_value: 5000, active: true },
    ],
  );
  const priceOfB = service.prices[1].id;

  const updated = await api.patch(`/services/${service.id}`, {
    base_price: 11000,
    prices: [
      { resource_id: b.id, price: 16000, compensation_type: "percent", compensation_value: 40 },
      { resource_id: c.id, price: 0, active: false },
    ],
  });
  t.is(updated.status, 200);
  t.is(updated.body.payload.base_price, 11000);
  t.deepEqual(
    updated.body.payload.prices.map((p: { resource_id: number; price: number }) => [p.resource_id, p.price]),
    [
      [b.id, 16000],
      [c.id, 0],
    ],
  );
  t.is(updated.body.payload.prices[0].id, priceOfB, "the listed resource's row is updated in place");

  const untouched = await api.patch(`/services/${service.id}`, { name: "Consultation+" });
  t.is(untouched.body.payload.prices.length, 2, "without prices the set is left alone");

  t.deepEqual((await api.get(`/services/${service.id}`)).body.payload, untouched.body.payload);
  const listed = (await api.get("/services")).body;
  t.is(listed.meta.count, listed.payload.length);
  t.true(listed.payload.some((s: { id: number }) => s.id === service.id));
  const removed = await api.delete(`/services/${service.id}`);
  t.deepEqual([removed.status, removed.body], [204, undefined]);
  t.deepEqual(await h.knex("scheduling_service_prices").where("service_id", service.id), []);
});

test("service and price validations; a failed update writes nothing", async (t) => {
  const resource = await api.create("/resources", { name: "V" });
  const service = await api.create("/services", { name: "Massage", base_price: 5000, prices: [{ resource_id: resource.id, price: 6000 }] });
  const cases: [unknown, Record<string, string[]>][] = [
    [{ base_price: -1 }, { base_price: ["must be greater than or equal to 0"] }],
    [{ base_price: 10.5 }, { base_price: ["must be of type integer"] }],
    [{ duration_min: 3 }, { duration_min: ["must be greater than or equal to 5"] }],
    [{ prices: [{ resource_id: resource.id, price: 0 }] }, { "prices.0.price": ["must be greater than 0 while the price is active"] }],
    [{ prices: [{ resource_id: resource.id, price: 100, compensation_value: 101 }] }, { "prices.0.compensation_value": ["must be less than or equal to 100"] }],
    [
      {
        prices: [
          { resource_id: resource.id, price: 100 },
          { resource_id: resource.id, price: 200 },
        ],
      },
      { "prices.1.resource_id": ["has already been taken"] },
    ],
  ];
  for (const [body, details] of cases) {
    const response = await api.patch(`/services/${service.id}`, body);
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual({ code: response.body.code, details: response.body.details }, { code: "VALIDATION_ERROR", details });
  }
  const unknownResource = await api.patch(`/services/${service.id}`, { base_price: 7000, prices: [{ resource_id: 999999, price: 100 }] });
  t.deepEqual([unknownResource.status, unknownResource.body], [404, { error: "Resource not found", code: "NOT_FOUND" }], "the fork's find, not a validation");
  const after = (await api.get(`/services/${service.id}`)).body.payload;
  t.deepEqual([after.base_price, after.prices.map((p: { price: number }) => p.price)], [5000, [6000]]);
  t.deepEqual((await api.post("/services", { base_price: 1 })).body.details, { name: ["can't be blank"] });
  t.is((await api.patch(`/services/${service.id}`, { name: "x" }, account.agent.token)).status, 401);
  t.is((await api.get(`/services/999999`)).body.code, "NOT_FOUND");
});

test("the list hides inactive services unless include_inactive", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Inactive services"));
  const active = await own.create("/services", { name: "Active" });
  const inactive = await own.create("/services", { name: "Inactive", active: false });
  const ids = async (query = "") => (await own.get(`/services${query}`)).body.payload.map((s: { id: number }) => s.id);
  t.deepEqual(await ids(), [active.id]);
  t.deepEqual(await ids("?include_inactive=true"), [active.id, inactive.id]);
  t.is((await own.get(`/services/${inactive.id}`)).status, 200, "an inactive service is still shown by id");
});
