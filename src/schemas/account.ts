import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { email } from "../http/schemas";

// Account shapes the platform and account APIs share.

/** Fields an account shares between the platform and account APIs. */
export const accountFields = {
  name: z.string().max(MAX_LENGTH.string).trim().min(1),
  locale: z.string().trim().min(1).max(10),
  domain: z.string().trim().max(100).nullable(),
  support_email: email().nullable(),
};

/** What every account response carries (presenters/account.ts accountCore). */
export const accountCoreResponse = {
  id: z.number(),
  name: z.string(),
  locale: z.string(),
  domain: z.string().nullable(),
  support_email: z.string().nullable(),
  status: z.enum(["active", "suspended"]),
  features: z.record(z.string(), z.literal(true)),
};
