import { z, type ZodType } from "zod";
import { id, jsonObject } from "../../../../http/schemas";
import { COMPENSATION_TYPES } from "../../../../scheduling/constants";
import { body, durationMin, endMinute, requiredText, startMinute, text, timezone } from "../common";

const compensationFields = {
  compensation_type: z.enum(COMPENSATION_TYPES),
  compensation_value: z.number().int().min(0),
};

export const resourceRulesParams = z.object({ account_id: id(), resource_id: id() });

// ---- resources

const resourceFields = z
  .object({
    name: requiredText(),
    specialty: text().nullable(),
    timezone: timezone(),
    slot_duration_min: durationMin(),
    ...compensationFields,
    active: z.boolean(),
    user_id: id().nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();

export const resourceCreate = body("resource", resourceFields.required({ name: true }), "SchedulingResourceCreate");
export const resourceUpdate = body("resource", resourceFields, "SchedulingResourceUpdate");
export type ResourceInput = z.output<typeof resourceFields>;

// ---- weekly rules

const ruleFields = {
  weekday: z.number().int().min(0).max(6),
  start_minute: startMinute(),
  end_minute: endMinute(),
  active: z.boolean().default(true),
};

/** The whole set, as `{rules: [...]}`, `{work_rules|break_rules: [...]}` or a bare array. */
const ruleSet = <S extends ZodType>(key: string, rule: S, name: string) =>
  z
    .preprocess(
      (input) => {
        if (Array.isArray(input)) return { rules: input };
        if (input && typeof input === "object" && key in input) return { rules: (input as Record<string, unknown>)[key] };
        return input;
      },
      z.object({ rules: z.array(rule).max(100) }).superRefine(({ rules }, ctx) => {
        const seen = new Set<string>();
        (rules as { weekday: number; start_minute: number; end_minute: number }[]).forEach((r, index) => {
          // Only between minutes that are themselves valid: a bad bound is reported on its own.
          const bounded = r.start_minute <= 1439 && r.end_minute >= 1;
          if (bounded && r.end_minute <= r.start_minute) {
            ctx.addIssue({ code: "custom", path: ["rules", index, "end_minute"], message: "must be greater than start minute" });
          }
          const key = `${r.weekday}/${r.start_minute}/${r.end_minute}`;
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["rules", index, "weekday"], message: "has already been taken" });
          seen.add(key);
        });
      }),
    )
    .openapi(name);

export const workRulesBody = ruleSet("work_rules", z.object(ruleFields), "SchedulingWorkRules");
export const breakRulesBody = ruleSet("break_rules", z.object({ ...ruleFields, title: text().nullable().optional() }), "SchedulingBreakRules");
