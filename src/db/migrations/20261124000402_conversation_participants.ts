import type { Knex } from "knex";

/** Agents following a conversation (Chatwoot's conversation_participants). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("conversation_participants", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("conversation_id").notNullable().references("conversations.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.timestamps(true, true);
    t.unique(["conversation_id", "user_id"]);
    t.index(["account_id", "user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("conversation_participants");
}
