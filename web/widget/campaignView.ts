import type { WidgetCampaign } from "./campaigns";
import type { Strings } from "./strings";

export interface CampaignHandlers {
  /** The visitor clicked the campaign's message: the widget opens with it. */
  open(): void;
  /** The visitor dismissed it. */
  dismiss(): void;
}

/**
 * The campaign as a message snippet on its own (Chatwoot's unread view): while it shows, the frame
 * draws only the snippet, and the page shows the frame small and see-through above the launcher.
 */
export function buildCampaignView(handlers: CampaignHandlers) {
  const box = document.createElement("aside");
  box.className = "cw-campaign";
  box.id = "cw-campaign";
  box.hidden = true;
  box.innerHTML = `
<button type="button" class="cw-campaign-dismiss" id="cw-campaign-dismiss">&times;</button>
<button type="button" class="cw-campaign-open" id="cw-campaign-open">
  <span class="cw-campaign-sender" id="cw-campaign-sender"></span>
  <span class="cw-campaign-text" id="cw-campaign-text"></span>
</button>`;
  document.body.appendChild(box);
  const $ = (id: string) => document.getElementById(id)!;
  $("cw-campaign-open").addEventListener("click", handlers.open);
  $("cw-campaign-dismiss").addEventListener("click", handlers.dismiss);

  return {
    show(campaign: WidgetCampaign, senderName: string, strings: Strings) {
      $("cw-campaign-sender").textContent = senderName;
      $("cw-campaign-text").textContent = campaign.message;
      $("cw-campaign-dismiss").setAttribute("aria-label", strings.dismiss);
      box.setAttribute("aria-label", strings.campaign);
      box.hidden = false;
      document.documentElement.classList.add("cw-unread");
    },
    shown: () => !box.hidden,
    hide() {
      box.hidden = true;
      document.documentElement.classList.remove("cw-unread");
    },
  };
}
