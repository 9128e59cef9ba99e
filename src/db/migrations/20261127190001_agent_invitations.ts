import type { Knex } from "knex";

/**
 * An account's invitation of a user who already belongs to another account: the user joins only by
 * accepting it (POST /api/v1/profile/invitations/:id/accept), with the role and availability it holds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("agent_invitations", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.bigInteger("inviter_id").references("users.id").onDelete("SET NULL");
    t.string("role").notNullable().defaultTo("agent");
    t.string("availability");
    t.boolean("auto_offline");
    t.timestamps(true, true);
    t.unique(["account_id", "user_id"]);
    t.index(["user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("agent_invitations");
}
