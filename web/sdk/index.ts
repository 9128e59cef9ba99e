import { type BridgeMessage, decode, encode } from "../shared/bridge";
import { CAMPAIGN_SNOOZE_COOKIE, readCookie, removeCookie, SESSION_COOKIE, writeCookie } from "./cookies";
import { CHAT_ICON, CLOSE_ICON, sdkStyles } from "./styles";

/** window.chatwootSettings, read once by run(): the subset of Chatwoot's this SDK honours. */
interface ChatwootSettings {
  position?: "left" | "right";
  locale?: string;
  useBrowserLanguage?: boolean;
  hideMessageBubble?: boolean;
  launcherTitle?: string;
  baseDomain?: string;
}

type UserFields = Record<string, unknown>;

/** window.$chatwoot: what a site calls to drive the widget. */
interface Chatwoot {
  hasLoaded: boolean;
  isOpen: boolean;
  baseUrl: string;
  websiteToken: string;
  locale: string;
  position: "left" | "right";
  user: UserFields | undefined;
  toggle(state?: "open" | "close"): void;
  toggleBubbleVisibility(visibility: "show" | "hide"): void;
  setUser(identifier: string | number, user: UserFields): void;
  setCustomAttributes(attributes: Record<string, unknown>): void;
  deleteCustomAttribute(key: string): void;
  setConversationCustomAttributes(attributes: Record<string, unknown>): void;
  setLabel(label: string): void;
  removeLabel(label: string): void;
  setLocale(locale?: string): void;
  reset(): void;
}

declare global {
  interface Window {
    chatwootSettings?: ChatwootSettings;
    chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void };
    $chatwoot?: Chatwoot;
  }
}

function run({ websiteToken, baseUrl }: { websiteToken: string; baseUrl: string }): void {
  if (window.$chatwoot) return;
  const settings = window.chatwootSettings ?? {};
  const position = settings.position === "left" ? "left" : "right";
  const initialLocale = settings.locale ?? (settings.useBrowserLanguage ? navigator.language.replace("-", "_") : "en");
  const base = baseUrl.replace(/\/+$/, "");
  const origin = new URL(base, location.href).origin;

  const style = document.createElement("style");
  style.textContent = sdkStyles(position);
  document.head.appendChild(style);

  const holder = document.createElement("div");
  holder.className = "cw-holder";
  holder.id = "cw-widget-holder";
  holder.hidden = true;
  const frame = document.createElement("iframe");
  frame.title = settings.launcherTitle || "Chat";
  frame.allow = "clipboard-write";
  holder.appendChild(frame);

  const bubble = document.createElement("button");
  bubble.type = "button";
  bubble.className = "cw-bubble";
  bubble.hidden = Boolean(settings.hideMessageBubble);
  bubble.setAttribute("aria-controls", holder.id);

  /** Messages for the frame wait until it says it has loaded. */
  let queue: BridgeMessage[] = [];
  const send = (message: BridgeMessage) => {
    if (chatwoot.hasLoaded) frame.contentWindow?.postMessage(encode(message), origin);
    else queue.push(message);
  };

  const load = (session: string | undefined) => {
    chatwoot.hasLoaded = false;
    const query = new URLSearchParams({ website_token: websiteToken, locale: chatwoot.locale });
    if (session) query.set("cw_conversation", session);
    frame.src = `${base}/widget?${query}`;
  };

  /** The frame shows a campaign's snippet alone (Chatwoot's unread mode): small and see-through above the launcher. */
  let unread = false;
  const showState = () => {
    holder.hidden = !chatwoot.isOpen && !unread;
    holder.classList.toggle("cw-unread", unread && !chatwoot.isOpen);
    bubble.innerHTML = chatwoot.isOpen ? CLOSE_ICON : CHAT_ICON;
    bubble.setAttribute("aria-expanded", String(chatwoot.isOpen));
    bubble.setAttribute("aria-label", chatwoot.isOpen ? "Close chat" : settings.launcherTitle || "Open chat");
  };

  const chatwoot: Chatwoot = {
    hasLoaded: false,
    isOpen: false,
    baseUrl: base,
    websiteToken,
    locale: initialLocale,
    position,
    user: undefined,
    toggle(state) {
      const open = state === "open" ? true : state === "close" ? false : !chatwoot.isOpen;
      if (open === chatwoot.isOpen) return;
      chatwoot.isOpen = open;
      showState();
      send({ event: "toggle-open", isOpen: open });
      if (open) send({ event: "push-event", eventName: "webwidget.triggered" });
      else bubble.focus();
      window.dispatchEvent(new CustomEvent(open ? "chatwoot:opened" : "chatwoot:closed"));
    },
    toggleBubbleVisibility(visibility) {
      bubble.hidden = visibility === "hide";
    },
    setUser(identifier, user) {
      if ((typeof identifier !== "string" && typeof identifier !== "number") || !user || typeof user !== "object") {
        throw new Error("setUser needs an identifier (string or number) and a user object");
      }
      chatwoot.user = { ...user, identifier };
      send({ event: "set-user", identifier, user });
    },
    setCustomAttributes: (customAttributes) => send({ event: "set-custom-attributes", customAttributes }),
    deleteCustomAttribute: (customAttribute) => send({ event: "delete-custom-attribute", customAttribute }),
    setConversationCustomAttributes: (customAttributes) => send({ event: "set-conversation-custom-attributes", customAttributes }),
    setLabel: (label) => send({ event: "set-label", label }),
    removeLabel: (label) => send({ event: "remove-label", label }),
    setLocale(locale = "en") {
      chatwoot.locale = locale;
      send({ event: "set-locale", locale });
    },
    reset() {
      chatwoot.toggle("close");
      unread = false;
      showState();
      chatwoot.user = undefined;
      queue = [];
      removeCookie(SESSION_COOKIE, settings.baseDomain);
      load(undefined);
    },
  };

  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow || event.origin !== origin) return;
    const message = decode(event.data);
    if (!message) return;
    switch (message.event) {
      case "loaded": {
        const config = message.config as { authToken: string; widgetColor?: string };
        writeCookie(SESSION_COOKIE, config.authToken, settings.baseDomain);
        if (config.widgetColor) document.documentElement.style.setProperty("--cw-widget-color", config.widgetColor);
        chatwoot.hasLoaded = true;
        const campaignsSnoozedTill = readCookie(CAMPAIGN_SNOOZE_COOKIE);
        frame.contentWindow?.postMessage(encode({ event: "config-set", locale: chatwoot.locale, position, campaignsSnoozedTill }), origin);
        reportUrl(true);
        if (chatwoot.isOpen) frame.contentWindow?.postMessage(encode({ event: "toggle-open", isOpen: true }), origin);
        for (const pending of queue.splice(0)) frame.contentWindow?.postMessage(encode(pending), origin);
        window.dispatchEvent(new CustomEvent("chatwoot:ready"));
        break;
      }
      case "setAuthCookie":
        writeCookie(SESSION_COOKIE, (message.data as { widgetAuthToken: string }).widgetAuthToken, settings.baseDomain);
        break;
      case "closeWindow":
      case "closeChat":
        chatwoot.toggle("close");
        break;
      case "toggleBubble":
        chatwoot.toggle();
        break;
      case "setUnreadMode":
      case "resetUnreadMode":
        unread = message.event === "setUnreadMode";
        showState();
        break;
      case "setCampaignReadOn": {
        const till = Number(message.expireBy);
        if (till > Date.now()) writeCookie(CAMPAIGN_SNOOZE_COOKIE, String(till), settings.baseDomain, Math.ceil((till - Date.now()) / 1000));
        break;
      }
      case "onMessage":
        window.dispatchEvent(new CustomEvent("chatwoot:on-message", { detail: message.data }));
        break;
      case "error":
        window.dispatchEvent(new CustomEvent("chatwoot:error", { detail: message.data }));
        break;
    }
  });

  /** The page's URL for the frame's campaigns, at load and whenever it changes (a single-page site changes it without loading). */
  let reportedUrl = location.href;
  const reportUrl = (force = false) => {
    if (!force && location.href === reportedUrl) return;
    reportedUrl = location.href;
    send({ event: "change-url", referrerURL: location.href, referrerHost: location.host });
  };
  window.addEventListener("popstate", () => reportUrl());
  window.addEventListener("hashchange", () => reportUrl());
  new MutationObserver(() => reportUrl()).observe(document.body, { childList: true, subtree: true });

  bubble.addEventListener("click", () => chatwoot.toggle());
  window.$chatwoot = chatwoot;
  showState();
  document.body.append(holder, bubble);
  load(readCookie(SESSION_COOKIE));
}

window.chatwootSDK = { run };
