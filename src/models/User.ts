import type { Knex } from "knex";
import { NotFound, ValidationError } from "../errors";
import { hashPassword, secureToken } from "../lib/tokens";
import { AccessToken } from "./AccessToken";
import { BaseModel } from "./BaseModel";

export interface UserAttributes {
  name?: string;
  display_name?: string | null;
  email?: string;
  password?: string;
  custom_attributes?: Record<string, unknown>;
}

export class User extends BaseModel {
  static tableName = "users";
  static jsonAttributes = ["ui_settings", "custom_attributes"];

  declare name: string;
  declare display_name: string | null;
  declare email: string;
  declare encrypted_password: string | null;
  declare provider: string;
  declare uid: string;
  declare pubsub_token: string;
  declare message_signature: string | null;
  declare avatar_url: string | null;
  declare avatar_key: string | null;
  declare type: string | null;
  declare confirmed_at: Date | null;
  declare ui_settings: Record<string, unknown>;
  declare custom_attributes: Record<string, unknown>;

  get availableName(): string {
    return this.display_name || this.name;
  }

  static async findByEmail(email: string, trx?: Knex): Promise<User | undefined> {
    return User.query(trx).whereRaw("lower(email) = lower(?)", [email]).first();
  }

  /**
   * A confirmed user (the platform skips confirmation) with its api_access_token; `alsoDo` runs in the
   * same transaction, so what the caller links to the user commits or rolls back with it.
   */
  static async createWithToken(
    { password, ...attributes }: UserAttributes,
    alsoDo: (user: User, trx: Knex) => Promise<void> = async () => {},
    /** An invited agent stays unconfirmed until they accept, as Devise's confirmable leaves them. */
    { confirmed = true }: { confirmed?: boolean } = {},
  ): Promise<User> {
    const { email, name } = attributes;
    if (!email) throw ValidationError.of("email", "can't be blank");
    if (!name) throw ValidationError.of("name", "can't be blank");
    // Hashed before the transaction opens, so a slow hash never holds a pooled connection.
    const encryptedPassword = password ? await hashPassword(password) : null;
    return User.transaction(async (t) => {
      // On the transaction's own connection: a second one from the pool while this one is held can
      // starve the pool under concurrent requests.
      await User.assertEmailFree(email, undefined, t);
      const user = await User.query(t)
        .insert({
          ...attributes,
          name,
          email,
          uid: email,
          encrypted_password: encryptedPassword,
          pubsub_token: secureToken(),
          confirmed_at: confirmed ? new Date() : null,
        })
        .returning("*");
      await AccessToken.issue("User", user.id, t);
      await alsoDo(user, t);
      return user;
    });
  }

  /** Updates the user; custom attributes merge into the stored ones, as Chatwoot's platform update does. */
  async applyUpdate({ password, custom_attributes, ...attributes }: UserAttributes): Promise<User> {
    if (attributes.email && attributes.email.toLowerCase() !== this.email.toLowerCase()) await User.assertEmailFree(attributes.email, this.id);
    const encryptedPassword = password ? await hashPassword(password) : undefined;
    return User.transaction(async (trx) => {
      // Locked, so custom attributes merge into what is stored rather than into this request's copy.
      const current = await User.query(trx).findById(this.id).forUpdate();
      if (!current) throw NotFound();
      return User.query(trx).patchAndFetchById(this.id, {
        ...attributes,
        ...(attributes.email ? { uid: attributes.email } : {}),
        ...(encryptedPassword ? { encrypted_password: encryptedPassword } : {}),
        ...(custom_attributes ? { custom_attributes: { ...current.custom_attributes, ...custom_attributes } } : {}),
      });
    });
  }

  /** Deletes the user with their token, memberships and platform grants; inside `trx` when given. */
  async destroy(trx?: Knex): Promise<void> {
    const run = async (db: Knex) => {
      await AccessToken.query(db).delete().where({ owner_type: "User", owner_id: this.id });
      await db("platform_app_permissibles").delete().where({ permissible_type: "User", permissible_id: this.id });
      await db("account_users").delete().where({ user_id: this.id });
      await User.query(db).deleteById(this.id);
    };
    await (trx ? run(trx) : User.transaction(run));
  }

  private static async assertEmailFree(email: string, exceptId?: number, trx?: Knex): Promise<void> {
    const existing = await User.findByEmail(email, trx);
    if (existing && existing.id !== exceptId) throw ValidationError.of("email", "has already been taken");
  }
}
