import type { Knex } from "knex";

/**
 * Chatwoot's help center: an account's portals, each with categories per locale and articles
 * (draft, published or archived) that a public portal page reads by slug.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("portals", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.string("name").notNullable();
    t.string("slug").notNullable().unique();
    t.string("custom_domain").unique();
    t.string("color");
    t.string("header_text");
    t.string("page_title");
    t.string("homepage_link");
    t.boolean("archived").notNullable().defaultTo(false);
    t.jsonb("config")
      .notNullable()
      .defaultTo(JSON.stringify({ allowed_locales: ["en"], default_locale: "en" }));
    t.bigInteger("inbox_id").references("inboxes.id").onDelete("SET NULL");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });
  await knex.schema.createTable("categories", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("portal_id").notNullable().references("portals.id").onDelete("CASCADE");
    t.string("name").notNullable();
    t.string("slug").notNullable();
    t.string("locale").notNullable().defaultTo("en");
    t.text("description");
    t.integer("position");
    t.timestamps(true, true);
    t.unique(["portal_id", "locale", "slug"]);
  });
  await knex.schema.createTable("articles", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("portal_id").notNullable().references("portals.id").onDelete("CASCADE");
    t.bigInteger("category_id").references("categories.id").onDelete("SET NULL");
    t.bigInteger("author_id").references("users.id").onDelete("SET NULL");
    t.string("title").notNullable();
    t.string("slug").notNullable();
    t.text("content").notNullable();
    t.text("description");
    t.string("status").notNullable().defaultTo("draft");
    t.string("locale").notNullable().defaultTo("en");
    t.integer("position");
    t.integer("views").notNullable().defaultTo(0);
    t.jsonb("meta").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.unique(["portal_id", "slug"]);
    t.index(["portal_id", "locale", "status"]);
  });
  await knex.raw(
    "CREATE INDEX articles_text_search ON articles USING gin (to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || content))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("articles");
  await knex.schema.dropTable("categories");
  await knex.schema.dropTable("portals");
}
