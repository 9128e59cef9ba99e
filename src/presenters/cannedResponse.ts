import type { CannedResponse } from "../models/CannedResponse";

/** `render json: @canned_response`: the record's columns. */
export function presentCannedResponse(response: CannedResponse) {
  return {
    id: response.id,
    account_id: response.account_id,
    short_code: response.short_code,
    content: response.content,
    created_at: response.created_at.toISOString(),
    updated_at: response.updated_at.toISOString(),
  };
}
