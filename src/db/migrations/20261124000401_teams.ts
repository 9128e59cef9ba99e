import type { Knex } from "knex";

/**
 * Teams and their members. Names are stored lower-cased (Chatwoot's before_validation), so the
 * unique index makes them unique per account regardless of case. A conversation's team_id points
 * at its team and is cleared when the team goes (Chatwoot's dependent: :nullify).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("teams", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("description");
    t.boolean("allow_auto_assign").notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.unique(["account_id", "name"]);
  });
  await knex.schema.createTable("team_members", (t) => {
    t.bigIncrements("id");
    // Kept beside team_id so account deletion and account-scoped lookups need no join.
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("team_id").notNullable().references("teams.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.timestamps(true, true);
    t.unique(["team_id", "user_id"]);
    t.index(["user_id"]);
  });
  // A team_id written before teams existed points at nothing.
  await knex("conversations").whereNotNull("team_id").update({ team_id: null });
  await knex.schema.alterTable("conversations", (t) => {
    t.foreign("team_id").references("teams.id").onDelete("SET NULL");
    t.index(["account_id", "team_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("conversations", (t) => {
    t.dropIndex(["account_id", "team_id"]);
    t.dropForeign(["team_id"]);
  });
  await knex.schema.dropTableIfExists("team_members");
  await knex.schema.dropTableIfExists("teams");
}
