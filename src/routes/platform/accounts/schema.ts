import { z } from "zod";
import { jsonObject } from "../../../http/schemas";
import { accountFields, accountCoreResponse } from "../../../schemas/account";

const platformAccountFields = {
  ...accountFields,
  status: z.enum(["active", "suspended"]),
  /** `{feature_name: bool}`: true enables, false disables. */
  features: jsonObject(),
  limits: jsonObject(),
  custom_attributes: jsonObject(),
};

export const platformAccountCreate = z.object(platformAccountFields).partial().required({ name: true }).openapi("PlatformAccountCreate");

export const platformAccountUpdate = z.object(platformAccountFields).partial().openapi("PlatformAccountUpdate");

export const platformAccountResponse = z
  .object({
    ...accountCoreResponse,
    custom_attributes: z.record(z.string(), z.unknown()),
    limits: z.record(z.string(), z.unknown()),
  })
  .openapi("PlatformAccount");
