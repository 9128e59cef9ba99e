import type { Knex } from "knex";

/**
 * The draft of a reply kept per conversation (Chatwoot keeps it in Redis under
 * CONVERSATION::<id>::DRAFT_MESSAGE): one row per conversation, shared by everyone who may see it,
 * gone with the conversation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("conversation_drafts", (t) => {
    t.bigInteger("conversation_id").primary().references("conversations.id").onDelete("CASCADE");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.text("message").notNullable();
    t.bigInteger("updated_by_id").references("users.id").onDelete("SET NULL");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("conversation_drafts");
}
