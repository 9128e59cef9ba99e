import { secureToken } from "../lib/tokens";
import { BaseModel } from "./BaseModel";

export class ChannelWebWidget extends BaseModel {
  static tableName = "channel_web_widgets";
  static jsonAttributes = ["pre_chat_form_options", "selected_feature_flags"];

  account_id!: number;
  website_url!: string | null;
  widget_color!: string;
  website_token!: string;
  welcome_title!: string | null;
  welcome_tagline!: string | null;
  reply_time!: string;
  hmac_token!: string;
  hmac_mandatory!: boolean;
  pre_chat_form_enabled!: boolean;
  pre_chat_form_options!: Record<string, unknown>;
  continuity_via_email!: boolean;
  selected_feature_flags!: string[];
  allowed_domains!: string | null;

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
