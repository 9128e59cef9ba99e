/**
 * Every error the API answers with, in Chatwoot's status codes and body shapes
 * (app/controllers/concerns/request_exception_handler.rb and friends).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === "string" ? body.error : typeof body.message === "string" ? body.message : `HTTP ${status}`);
  }
}

/** A request over a throttle's limit: Rack::Attack's 429, with the seconds until the next one is counted. */
export class Throttled extends Error {
  readonly status = 429;
  readonly retryAfter: number;
  constructor(msBeforeNext: number) {
    super("Retry later");
    this.retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  }
}

export const MISSING_TOKEN_BODY = { errors: ["You need to sign in or sign up before continuing."] };

export const InvalidAccessToken = () => new ApiError(401, { error: "Invalid Access Token" });
export const MissingAccessToken = () => new ApiError(401, MISSING_TOKEN_BODY);
export const InvalidPlatformToken = () => new ApiError(401, { error: "Invalid access_token" });
export const NonPermissibleResource = () => new ApiError(401, { error: "Non permissible resource" });
export const NotInAccount = () => new ApiError(401, { error: "You are not authorized to access this account" });
export const AccountSuspended = () => new ApiError(401, { error: "Account is suspended" });
export const BotEndpointDenied = () => new ApiError(401, { error: "Access to this endpoint is not authorized for bots" });
export const BotNotInAccount = () => new ApiError(401, { error: "Bot is not authorized to access this account" });
export const PermissionDenied = () => new ApiError(401, { error: "You are not authorized to do this action" });
export const NotFound = () => new ApiError(404, { error: "Resource could not be found" });
export const BadRequest = (error: string) => new ApiError(400, { error });
export const PayloadTooLarge = () => new ApiError(413, { error: "Request body is too large" });
/** Rails' render_could_not_create_error: 422 with a free-form `error`. */
export const CouldNotProcess = (error: unknown) => new ApiError(422, { error });

export interface AttributeError {
  attribute: string;
  /** Rails full message, e.g. "Email has already been taken". */
  message: string;
}

/** ActiveRecord::RecordInvalid: 422 {"message": full messages joined, "attributes": [...]}. */
export class ValidationError extends ApiError {
  constructor(readonly errors: AttributeError[]) {
    super(422, {
      message: errors.map((e) => e.message).join(", "),
      attributes: [...new Set(errors.map((e) => e.attribute))],
    });
  }

  /** One attribute error with its message written as Rails writes it: humanized attribute + text. */
  static of(attribute: string, text: string): ValidationError {
    return new ValidationError([{ attribute, message: fullMessage(attribute, text) }]);
  }
}

/** "auto_resolve_after" + "must be ..." → "Auto resolve after must be ...", as ActiveModel does. */
export function fullMessage(attribute: string, text: string): string {
  if (!attribute || attribute === "base") return text;
  const human = attribute.replace(/_id$/, "").replace(/_/g, " ");
  return `${human.charAt(0).toUpperCase()}${human.slice(1)} ${text}`;
}
