import { z } from "zod";
import { id, jsonObject } from "../../../../http/schemas";
import { COMPENSATION_TYPES } from "../../../../scheduling/constants";
import { body, durationMin, money, requiredText, text } from "../common";

const priceFields = z.object({
  resource_id: id(),
  price: money(),
  compensation_type: z.enum(COMPENSATION_TYPES).default("percent"),
  compensation_value: z.number().int().min(0).default(0),
  active: z.boolean().default(true),
});

const serviceFields = z
  .object({
    name: requiredText(),
    category: text().nullable(),
    direction: text().nullable(),
    service_type: text().nullable(),
    description: z.string().max(10_000).nullable(),
    base_price: money(),
    duration_min: durationMin(),
    active: z.boolean(),
    prepayment_required: z.boolean(),
    custom_attributes: jsonObject(),
    prices: z.array(priceFields).max(500),
  })
  .partial();
export const serviceCreate = body("service", serviceFields.required({ name: true }), "SchedulingServiceCreate");
export const serviceUpdate = body("service", serviceFields, "SchedulingServiceUpdate");
export type ServiceInput = z.output<typeof serviceFields>;

export const serviceResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    name: z.string(),
    category: z.string().nullable(),
    direction: z.string().nullable(),
    service_type: z.string().nullable(),
    description: z.string().nullable(),
    base_price: z.number(),
    duration_min: z.number(),
    active: z.boolean(),
    prepayment_required: z.boolean(),
    custom_attributes: jsonObject(),
    prices: z.array(
      z.object({
        id: z.number(),
        resource_id: z.number(),
        price: z.number(),
        compensation_type: z.string(),
        compensation_value: z.number(),
        active: z.boolean(),
      }),
    ),
  })
  .openapi("SchedulingService");
