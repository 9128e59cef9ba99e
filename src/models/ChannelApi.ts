import { secureToken } from "../lib/tokens";
import { BaseModel } from "./BaseModel";

/** Channel::Api: the inbox whose webhook_url is the channel's message transport. */
export class ChannelApi extends BaseModel {
  static tableName = "channel_api";
  static jsonAttributes = ["additional_attributes"];

  declare account_id: number;
  declare webhook_url: string | null;
  declare identifier: string;
  declare hmac_token: string;
  declare hmac_mandatory: boolean;
  declare secret: string;
  declare additional_attributes: Record<string, unknown>;

  /** Tokens are generated here, as Chatwoot's has_secure_token does. */
  static generatedColumns() {
    return { identifier: secureToken(), hmac_token: secureToken(), secret: secureToken() };
  }
}
