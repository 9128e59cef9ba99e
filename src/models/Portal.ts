import { BaseModel } from "./BaseModel";

export interface PortalConfig {
  allowed_locales: string[];
  default_locale: string;
}

/** A help center of the account (Chatwoot's Portal): its pages live at /hc/:slug. */
export class Portal extends BaseModel {
  static tableName = "portals";

  declare account_id: number;
  declare name: string;
  declare slug: string;
  declare custom_domain: string | null;
  declare color: string | null;
  declare header_text: string | null;
  declare page_title: string | null;
  declare homepage_link: string | null;
  declare archived: boolean;
  declare config: PortalConfig;
  /** The web widget inbox shown on the portal's pages. */
  declare inbox_id: number | null;
}
