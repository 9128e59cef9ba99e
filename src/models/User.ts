import type { Knex } from "knex";
import { ValidationError } from "../errors";
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

  name!: string;
  display_name!: string | null;
  email!: string;
  encrypted_password!: string | null;
  provider!: string;
  uid!: string;
  pubsub_token!: string;
  message_signature!: string | null;
  avatar_url!: string | null;
  type!: string | null;
  confirmed_at!: Date | null;
  ui_settings!: Record<string, unknown>;
  custom_attributes!: Record<string, unknown>;

  get availableName(): string {
    return this.display_name || this.name;
  }

  static async findByEmail(email: string): Promise<User | undefined> {
    return User.query().whereRaw("lower(email) = lower(?)", [email]).first();
  }

  /** A confirmed user (the platform skips confirmation) with its api_access_token. */
  static async createWithToken({ password, ...attributes }: UserAttributes, trx?: Knex): Promise<User> {
    if (!attributes.email) throw ValidationError.of("email", "can't be blank");
    if (!attributes.name) throw ValidationError.of("name", "can't be blank");
    await User.assertEmailFree(attributes.email);
    const create = async (t: Knex) => {
      const user = await User.query(t).insert({
        ...attributes,
        name: attributes.name,
        email: attributes.email,
        uid: attributes.email,
        encrypted_password: password ? await hashPassword(password) : null,
        pubsub_token: secureToken(),
        confirmed_at: new Date(),
      }).returning("*");
      await AccessToken.issue("User", user.id, t);
      return user;
    };
    return trx ? create(trx) : User.transaction(create);
  }

  /** Updates the user; custom attributes merge into the stored ones, as Chatwoot's platform update does. */
  async applyUpdate({ password, custom_attributes, ...attributes }: UserAttributes): Promise<User> {
    if (attributes.email && attributes.email.toLowerCase() !== this.email.toLowerCase()) await User.assertEmailFree(attributes.email, this.id);
    return User.query().patchAndFetchById(this.id, {
      ...attributes,
      ...(attributes.email ? { uid: attributes.email } : {}),
      ...(password ? { encrypted_password: await hashPassword(password) } : {}),
      ...(custom_attributes ? { custom_attributes: { ...this.custom_attributes, ...custom_attributes } } : {}),
    });
  }

  async destroy(): Promise<void> {
    await User.transaction(async (trx) => {
      await AccessToken.query(trx).delete().where({ owner_type: "User", owner_id: this.id });
      await trx("platform_app_permissibles").delete().where({ permissible_type: "User", permissible_id: this.id });
      await trx("account_users").delete().where({ user_id: this.id });
      await User.query(trx).deleteById(this.id);
    });
  }

  private static async assertEmailFree(email: string, exceptId?: number): Promise<void> {
    const existing = await User.findByEmail(email);
    if (existing && existing.id !== exceptId) throw ValidationError.of("email", "has already been taken");
  }
}
