import test from "ava";
import { z } from "zod";
import { coerceFormValues, decodeFormFields } from "../../src/http/multipart";

test("bracket notation decodes as Rack decodes it", (t) => {
  t.deepEqual(
    decodeFormFields([
      ["content", "Hi"],
      ["custom_attributes[plan]", "gold"],
      ["custom_attributes[seats]", "3"],
      ["tags[]", "a"],
      ["tags[]", "b"],
      ["content_attributes[items][][title]", "Yes"],
      ["content_attributes[items][][value]", "yes"],
      ["content_attributes[items][][title]", "No"],
      ["contact[address][city]", "Paris"],
      ["__proto__[polluted]", "x"],
      ["odd]name", "kept whole"],
    ]),
    {
      content: "Hi",
      custom_attributes: { plan: "gold", seats: "3" },
      tags: ["a", "b"],
      content_attributes: { items: [{ title: "Yes", value: "yes" }, { title: "No" }] },
      contact: { address: { city: "Paris" } },
      "odd]name": "kept whole",
    },
  );
  t.is(({} as Record<string, unknown>).polluted, undefined);
});

test("strings are cast where the schema wants booleans and numbers, as ActiveRecord casts them", (t) => {
  const schema = z.preprocess(
    (body: any) => body?.contact ?? body,
    z
      .object({
        blocked: z.boolean(),
        private: z.boolean(),
        inbox_id: z.coerce.number().int(),
        count: z.number().int(),
        name: z.string(),
        bot_type: z.union([z.number().int(), z.enum(["webhook"])]),
        flags: z.array(z.boolean()),
        custom_attributes: z.record(z.string(), z.unknown()),
      })
      .partial(),
  );
  t.deepEqual(
    coerceFormValues(schema, {
      blocked: "false",
      private: "1",
      inbox_id: "12",
      count: "7",
      name: "true",
      bot_type: "0",
      flags: ["off", "t"],
      custom_attributes: { n: "1" },
    }),
    { blocked: false, private: true, inbox_id: 12, count: 7, name: "true", bot_type: 0, flags: [false, true], custom_attributes: { n: "1" } },
  );
  // Under the params wrapper the same casts apply; blank is nil; what cannot be a number is left for the schema.
  t.deepEqual(coerceFormValues(schema, { contact: { blocked: "FALSE", count: "" } }), { blocked: false, count: undefined });
  t.deepEqual(coerceFormValues(schema, { count: "seven", bot_type: "webhook" }), { count: "seven", bot_type: "webhook" });
  t.false(schema.safeParse(coerceFormValues(schema, { count: "seven" })).success);
});
