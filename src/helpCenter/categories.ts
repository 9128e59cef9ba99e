import type { Knex } from "knex";
import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { definedOnly } from "../lib/objects";
import { Category } from "../models/Category";
import type { Portal } from "../models/Portal";
import type { CategoryInput } from "../routes/api/helpCenter/schema";
import { parameterize } from "./slugs";

/** The portal's categories (in one locale if given), by position then id, as Chatwoot's order(position: :asc). */
export async function listCategories(portal: Portal, locale: string | undefined, db?: Knex): Promise<Category[]> {
  const query = Category.query(db).where("portal_id", portal.id);
  if (locale) query.where("locale", locale);
  return query.orderByRaw("position ASC NULLS LAST, id");
}

/** How many articles each category holds (only published ones when asked, for the public pages). */
export async function articleCounts(db: Knex, categoryIds: number[], { publishedOnly = false } = {}): Promise<Map<number, number>> {
  const query = db("articles").whereIn("category_id", categoryIds).groupBy("category_id").select("category_id").count("* as count");
  if (publishedOnly) query.where("status", "published");
  const rows = (await query) as unknown as { category_id: string; count: string }[];
  return new Map(rows.map((row) => [Number(row.category_id), Number(row.count)]));
}

export async function findCategory(portal: Portal, id: number, db?: Knex): Promise<Category> {
  const category = await Category.query(db).findOne({ portal_id: portal.id, id });
  if (!category) throw NotFound();
  return category;
}

/** Category's validations: a name, and a locale the portal offers; the slug defaults to the parameterized name. */
function validate(portal: Portal, attributes: { name?: string; slug?: string; locale?: string }): void {
  const errors: AttributeError[] = [];
  if (!attributes.name?.trim()) errors.push({ attribute: "name", message: fullMessage("name", "can't be blank") });
  if (!attributes.slug) errors.push({ attribute: "slug", message: fullMessage("slug", "can't be blank") });
  if (attributes.locale && !portal.config.allowed_locales.includes(attributes.locale))
    errors.push({
      attribute: "locale",
      message: fullMessage("locale", `${attributes.locale} of category is not part of portal's [${portal.config.allowed_locales.join(", ")}].`),
    });
  if (errors.length) throw new ValidationError(errors);
}

/** A slug taken in the portal and locale is refused by the unique index (422 "Slug has already been taken"). */
export async function createCategory(portal: Portal, input: CategoryInput): Promise<Category> {
  const attributes = { ...definedOnly(input), locale: input.locale ?? portal.config.default_locale };
  attributes.slug = input.slug ? parameterize(input.slug) : parameterize(input.name ?? "");
  validate(portal, attributes);
  return Category.query()
    .insert({ ...attributes, name: attributes.name!, slug: attributes.slug, account_id: portal.account_id, portal_id: portal.id })
    .returning("*");
}

export async function updateCategory(portal: Portal, current: Category, input: CategoryInput): Promise<Category> {
  const changes = definedOnly(input);
  if (changes.slug !== undefined) changes.slug = parameterize(changes.slug);
  validate(portal, { name: current.name, slug: current.slug, locale: current.locale, ...changes });
  const updated = await Category.query().patchAndFetchById(current.id, changes);
  if (!updated) throw NotFound();
  return updated;
}

/** Its articles stay, without a category (Chatwoot's dependent: :nullify). */
export async function destroyCategory(category: Category): Promise<void> {
  await Category.query().deleteById(category.id);
}
