import type { Knex } from "knex";

/**
 * The account's teams and labels, which reports only read: their tables (Chatwoot's `teams` with
 * `name`, `labels` with `title`) come with the teams and labels API. Until a database has them, the
 * account simply has none.
 */
async function hasTable(knex: Knex, table: "teams" | "labels"): Promise<boolean> {
  const result = await knex.raw("SELECT to_regclass(?) IS NOT NULL AS present", [`public.${table}`]);
  return Boolean(result.rows[0].present);
}

export interface Team {
  id: number;
  name: string;
}

export interface Label {
  id: number;
  title: string;
}

export async function accountTeams(knex: Knex, accountId: number): Promise<Team[]> {
  if (!(await hasTable(knex, "teams"))) return [];
  return knex("teams").where("account_id", accountId).orderBy("id").select("id", "name");
}

export async function accountLabels(knex: Knex, accountId: number): Promise<Label[]> {
  if (!(await hasTable(knex, "labels"))) return [];
  return knex("labels").where("account_id", accountId).orderBy("id").select("id", "title");
}

export async function findTeam(knex: Knex, accountId: number, id: number): Promise<Team | undefined> {
  if (!(await hasTable(knex, "teams"))) return undefined;
  return knex("teams").where({ account_id: accountId, id }).first("id", "name");
}

export async function findLabel(knex: Knex, accountId: number, id: number): Promise<Label | undefined> {
  if (!(await hasTable(knex, "labels"))) return undefined;
  return knex("labels").where({ account_id: accountId, id }).first("id", "title");
}
