import { z, type ZodType } from "zod";
import { ValidationError, fullMessage } from "../errors";

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = { int: "integer", number: "number", string: "string", boolean: "boolean" };

/**
 * Words for zod's issues as Rails validations word them, so a 422 reads like Chatwoot's
 * ("must be greater than or equal to 10", "can't be blank"). Returning undefined keeps zod's own text.
 */
function railsText(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "can't be blank";
      return `must be of type ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return `must be greater than${issue.inclusive ? " or equal to" : ""} ${issue.minimum}`;
      }
      if (Number(issue.minimum) <= 1) return "can't be blank";
      return `is too short (minimum is ${issue.minimum} ${issue.origin === "string" ? "characters" : "items"})`;
    case "too_big":
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return `must be less than${issue.inclusive ? " or equal to" : ""} ${issue.maximum}`;
      }
      return `is too long (maximum is ${issue.maximum} ${issue.origin === "string" ? "characters" : "items"})`;
    case "invalid_format":
      return "is invalid";
    case "invalid_value":
      return "is not included in the list";
    default:
      return undefined;
  }
}

z.config({ customError: (issue) => railsText(issue) });

/** The attribute an issue belongs to: the deepest named key of its path. */
function attributeOf(path: readonly PropertyKey[]): string {
  const named = path.filter((key): key is string => typeof key === "string");
  return named.at(-1) ?? "base";
}

export function toValidationError(error: z.ZodError): ValidationError {
  return new ValidationError(
    error.issues.map((issue) => {
      const attribute = attributeOf(issue.path);
      return { attribute, message: fullMessage(attribute, issue.message) };
    }),
  );
}

/** Parses input with a schema, answering 422 in Chatwoot's shape when it does not fit. */
export function parseOrThrow<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw toValidationError(result.error);
  return result.data;
}
