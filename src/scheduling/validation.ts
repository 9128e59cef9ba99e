/**
 * Checks that span several fields, run on the record as it will be saved (request merged over the
 * stored row), so a partial update cannot leave an end before its start.
 */
import { invalid, type ErrorDetails } from "./errors";

export class Checks {
  private readonly details: ErrorDetails = {};

  add(attribute: string, text: string): this {
    (this.details[attribute] ??= []).push(text);
    return this;
  }

  /** Minutes of a local day: start 0..1439 and end 1..1440 are the fields' own; here end > start. */
  minuteRange(start: number, end: number, endAttribute = "end_minute"): this {
    if (end <= start) this.add(endAttribute, "must be greater than start minute");
    return this;
  }

  /** A percent compensation is a share of the price. */
  compensation(type: string, value: number, attribute = "compensation_value"): this {
    if (type === "percent" && value > 100) this.add(attribute, "must be less than or equal to 100");
    return this;
  }

  /** Throws 422 VALIDATION_ERROR listing every failed check. */
  done(): void {
    if (Object.keys(this.details).length) throw invalid(this.details);
  }
}

export const checks = () => new Checks();
