import { secureToken } from "../lib/tokens";
import { BaseModel } from "./BaseModel";

export class ChannelWebWidget extends BaseModel {
  static tableName = "channel_web_widgets";
  static jsonAttributes = ["pre_chat_form_options", "selected_feature_flags"];

  declare account_id: number;
  declare website_url: string | null;
  declare widget_color: string;
  declare website_token: string;
  declare welcome_title: string | null;
  declare welcome_tagline: string | null;
  declare reply_time: string;
  declare hmac_token: string;
  declare hmac_mandatory: boolean;
  declare pre_chat_form_enabled: boolean;
  declare pre_chat_form_options: Record<string, unknown>;
  declare continuity_via_email: boolean;
  declare selected_feature_flags: string[];
  declare allowed_domains: string | null;

  static generatedColumns() {
    return { website_token: secureToken(), hmac_token: secureToken() };
  }

  /** The embed snippet the dashboard shows; it loads the widget SDK with this inbox's token. */
  webWidgetScript(baseUrl: string): string {
    return `<script>
  (function(d,t) {
    var BASE_URL=${JSON.stringify(baseUrl)};
    var g=d.createElement(t),s=d.getElementsByTagName(t)[0];
    g.src=BASE_URL+"/packs/js/sdk.js";
    g.defer = true;
    g.async = true;
    s.parentNode.insertBefore(g,s);
    g.onload=function(){
      window.chatwootSDK.run({
        websiteToken: ${JSON.stringify(this.website_token)},
        baseUrl: BASE_URL
      })
    }
  })(document,"script");
</script>
`;
  }
}
