import test from "ava";
import { jsonEqual } from "../../src/lib/jsonEqual";

test("key order does not matter, at any depth", (t) => {
  t.true(jsonEqual({ plan: "pro", order_id: 7 }, { order_id: 7, plan: "pro" }));
  t.true(jsonEqual({ a: { y: [1, { q: 1, p: 2 }], x: null } }, { a: { x: null, y: [1, { p: 2, q: 1 }] } }));
});

test("values, array order, missing keys and types do", (t) => {
  t.false(jsonEqual({ a: 1 }, { a: 2 }));
  t.false(jsonEqual([1, 2], [2, 1]));
  t.false(jsonEqual({ a: 1 }, { a: 1, b: null }));
  t.false(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 }));
  t.false(jsonEqual("1", 1));
  t.false(jsonEqual([], {}));
  t.false(jsonEqual(null, {}));
});

test("undefined entries count as absent; dates compare by instant", (t) => {
  t.true(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
  t.true(jsonEqual(new Date("2026-11-23T10:00:00Z"), new Date(Date.parse("2026-11-23T10:00:00.000Z"))));
  t.false(jsonEqual(new Date(0), "1970-01-01T00:00:00.000Z"));
});
