import type { BridgeMessage } from "../shared/bridge";
import type { WidgetApi } from "./api";
import { buildCampaignView } from "./campaignView";
import { campaignsForPage, secondsOnPage, type WidgetCampaign } from "./campaigns";
import type { WebChannel } from "./config";
import { isOpenNow } from "./hours";
import type { ChatMessage } from "./messageView";
import type { Strings } from "./strings";

/** What the widget lends the campaigns: its API, its state and where it shows things. */
export interface CampaignHost {
  api: WidgetApi;
  channel: WebChannel;
  strings(): Strings;
  locale(): string;
  isOpen(): boolean;
  hasConversation(): boolean;
  toPage(message: BridgeMessage): void;
  showInLog(message: ChatMessage): void;
  reportError(error: unknown): void;
}

/** Chatwoot's SDK snoozes campaigns for an hour once one has been read; here, once one has shown. */
const SNOOZE_MS = 3_600_000;

/**
 * Ongoing campaigns as Chatwoot's widget runs them: on each page the SDK reports (change-url), a timer
 * per campaign whose URL rule matches (and, for business-hours ones, while the inbox is open); when
 * one fires, its message shows as a snippet, unless the widget is open, the visitor already has a
 * conversation, or campaigns are snoozed. The widget opens with it; the visitor's first reply opens
 * the campaign's conversation (campaign.triggered) before it is sent.
 */
export function campaignRunner(host: CampaignHost) {
  let campaigns: WidgetCampaign[] | undefined;
  let timers: ReturnType<typeof setTimeout>[] = [];
  let active: WidgetCampaign | undefined;
  let snoozedTill = 0;
  let pageUrl = "";
  const senderName = (campaign: WidgetCampaign) => campaign.sender?.name || host.channel.websiteName;

  const leaveSnippet = () => {
    view.hide();
    host.toPage({ event: "resetUnreadMode" });
  };
  const view = buildCampaignView({
    open: () => host.toPage({ event: "toggleBubble" }),
    dismiss: () => {
      active = undefined;
      leaveSnippet();
    },
  });

  const blocked = () => host.isOpen() || host.hasConversation() || snoozedTill > Date.now();

  async function start(id: number): Promise<void> {
    if (active || blocked()) return;
    // Read again, as Chatwoot does: the campaign may have been disabled since the page loaded.
    const campaign = (await host.api.call<WidgetCampaign[]>("GET", "/campaigns")).find((item) => item.id === id);
    if (!campaign || active || blocked()) return;
    active = campaign;
    snoozedTill = Date.now() + SNOOZE_MS;
    host.toPage({ event: "setCampaignReadOn", expireBy: snoozedTill });
    view.show(campaign, senderName(campaign), host.strings());
    host.toPage({ event: "setUnreadMode" });
  }

  return {
    /** The page's URL, at load and whenever it changes: the timers start over for it. */
    async onPage(url: string): Promise<void> {
      pageUrl = url;
      timers.forEach(clearTimeout);
      timers = [];
      campaigns ??= await host.api.call<WidgetCampaign[]>("GET", "/campaigns");
      const open = isOpenNow(host.channel.workingHoursEnabled, host.channel.workingHours, host.channel.timezone);
      for (const campaign of campaignsForPage(campaigns, url, open)) {
        timers.push(setTimeout(() => start(campaign.id).catch(host.reportError), secondsOnPage(campaign) * 1000));
      }
    },
    /** The page's cw_snooze_campaigns_till (Unix milliseconds). */
    snoozeUntil(till: number): void {
      if (Number.isFinite(till)) snoozedTill = Math.max(snoozedTill, till);
    },
    /** The widget opened: a campaign on show becomes its opening message. */
    onOpen(): void {
      if (!active || !view.shown()) return;
      leaveSnippet();
      host.showInLog({
        echo_id: `campaign-${active.id}`,
        content: active.message,
        message_type: 1,
        content_type: "text",
        content_attributes: {},
        created_at: Date.now() / 1000,
        sender: { name: senderName(active) },
      });
    },
    /** Before the visitor's first message: the shown campaign's conversation, with its message first. Whether one was opened. */
    async beforeFirstReply(): Promise<boolean> {
      const campaign = active;
      if (!campaign || host.hasConversation()) return false;
      active = undefined;
      await host.api.call("POST", `/events?locale=${encodeURIComponent(host.locale())}`, {
        name: "campaign.triggered",
        event_info: { campaign_id: campaign.id, referer: pageUrl, initiated_at: { timestamp: new Date().toString() } },
      });
      return true;
    },
  };
}
