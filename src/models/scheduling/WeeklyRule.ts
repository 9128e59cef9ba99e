import type { Knex } from "knex";
import type { ModelClass } from "objection";
import { SchedulingModel } from "./SchedulingModel";

export interface WeeklyRuleAttributes {
  weekday: number;
  start_minute: number;
  end_minute: number;
  active: boolean;
  title?: string | null;
}

/** The columns work and break rules share; each kind is its own table. */
class WeeklyRule extends SchedulingModel {
  declare account_id: number;
  declare resource_id: number;
  declare weekday: number;
  declare start_minute: number;
  declare end_minute: number;
  declare active: boolean;

  static async ofResources<R extends WeeklyRule>(this: ModelClass<R>, resourceIds: readonly number[], trx?: Knex): Promise<R[]> {
    const rows = await this.query(trx).whereIn("resource_id", resourceIds).orderBy(["resource_id", "weekday", "start_minute", "id"]);
    return rows as unknown as R[];
  }

  /** The fork's PATCH semantics: the resource's whole set is deleted and the given rules created, atomically. */
  static async replaceSet<R extends WeeklyRule>(
    this: ModelClass<R>,
    resource: { id: number; account_id: number },
    rules: readonly WeeklyRuleAttributes[],
  ): Promise<R[]> {
    return this.transaction(async (trx: Knex.Transaction) => {
      await this.query(trx).delete().where("resource_id", resource.id);
      if (rules.length === 0) return [];
      const rows = rules.map((rule) => ({ ...rule, account_id: resource.account_id, resource_id: resource.id }));
      await this.query(trx).insert(rows as never);
      return (this as unknown as typeof WeeklyRule).ofResources([resource.id], trx) as Promise<R[]>;
    });
  }
}

export class WorkRule extends WeeklyRule {
  static tableName = "scheduling_work_rules";
}

export class BreakRule extends WeeklyRule {
  static tableName = "scheduling_break_rules";
  declare title: string | null;
}

export type AnyWeeklyRule = WorkRule | BreakRule;
