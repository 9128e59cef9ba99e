import type { Pojo } from "objection";
import { BaseModel } from "../BaseModel";

/**
 * pg hands `date` columns over as a Date at local midnight; scheduling dates are calendar dates
 * ("YYYY-MM-DD") and must not shift with the server's timezone, so they are read back as strings.
 */
export class SchedulingModel extends BaseModel {
  static dateColumns: readonly string[] = [];

  $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    for (const column of (this.constructor as typeof SchedulingModel).dateColumns) {
      const value = parsed[column];
      if (value instanceof Date) {
        const pad = (n: number) => String(n).padStart(2, "0");
        parsed[column] = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
      }
    }
    return parsed;
  }
}
