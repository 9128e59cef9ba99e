import type { Knex } from "knex";

/**
 * Message attachments (Chatwoot's attachments table with its Active Storage blob folded in), and
 * the queue of stored files whose rows are gone: a trigger fills it on every delete, whichever
 * way the row went (a message deleted, a contact's or inbox's conversations cascading, an account
 * removed), so the files are removed after the commit and never before it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("attachments", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("message_id").notNullable().references("messages.id").onDelete("CASCADE");
    // Chatwoot's integer enum: image 0, audio 1, video 2, file 3, ...
    t.smallint("file_type").notNullable().defaultTo(0);
    t.text("extension");
    t.text("content_type").notNullable();
    t.text("filename").notNullable();
    t.bigInteger("file_size").notNullable();
    t.integer("width");
    t.integer("height");
    t.text("storage_key").notNullable().unique();
    t.text("thumb_key");
    // When the image analysis ran (dimensions and thumbnail), successful or not.
    t.timestamp("analyzed_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["message_id"]);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("file_deletions", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable();
    t.text("storage_key").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["account_id"]);
  });

  await knex.raw(`
    CREATE FUNCTION queue_attachment_file_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO file_deletions (account_id, storage_key) VALUES (OLD.account_id, OLD.storage_key);
      IF OLD.thumb_key IS NOT NULL THEN
        INSERT INTO file_deletions (account_id, storage_key) VALUES (OLD.account_id, OLD.thumb_key);
      END IF;
      RETURN OLD;
    END $$;
    CREATE TRIGGER attachments_queue_file_deletion AFTER DELETE ON attachments
      FOR EACH ROW EXECUTE FUNCTION queue_attachment_file_deletion();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("attachments");
  await knex.raw("DROP FUNCTION IF EXISTS queue_attachment_file_deletion()");
  await knex.schema.dropTableIfExists("file_deletions");
}
