import "./widget.css";
import { type BridgeMessage, decode, encode } from "../shared/bridge";
import { WidgetApi } from "./api";
import { campaignRunner } from "./campaignRunner";
import { readBoot } from "./config";
import { isOpenNow } from "./hours";
import { subscribeVisitor, type Pushed } from "./live";
import type { ChatMessage } from "./messageView";
import { stringsFor } from "./strings";
import { buildView } from "./view";

const boot = readBoot();
const { channel } = boot;
const api = new WidgetApi(channel.websiteToken, boot.authToken);
let locale = new URLSearchParams(location.search).get("locale") || channel.locale;
let isOpen = false;
let hasConversation = false;

const toPage = (message: BridgeMessage) => window.parent.postMessage(encode(message), "*");
const reportError = (error: unknown) => toPage({ event: "error", data: { message: String(error) } });

const view = buildView(channel, stringsFor(locale), isOpenNow(channel.workingHoursEnabled, channel.workingHours, channel.timezone), {
  close: () => toPage({ event: "closeWindow" }),
  send: (content, files) => void send(content, files),
  typing: (on) => {
    if (hasConversation) api.call("POST", "/conversations/toggle_typing", { typing_status: on ? "on" : "off" }).catch(() => undefined);
  },
  answer: (message, submitted_values) =>
    void api.call<ChatMessage>("PATCH", `/messages/${message.id}`, { message: { submitted_values } }).then(view.upsert).catch(reportError),
  answerEmail: (message, email) => void api.call<ChatMessage>("PATCH", `/messages/${message.id}`, { contact: { email } }).then(view.upsert).catch(reportError),
});

const campaigns = campaignRunner({
  api,
  channel,
  strings: () => stringsFor(locale),
  locale: () => locale,
  isOpen: () => isOpen,
  hasConversation: () => hasConversation,
  toPage,
  showInLog: (message) => view.upsert(message),
  reportError,
});

let echoCounter = 0;
async function send(content: string, files: File[]): Promise<void> {
  try {
    // The campaign's message opens the conversation; the log then shows it as the server keeps it.
    if (await campaigns.beforeFirstReply()) await loadMessages();
  } catch (error) {
    reportError(error);
  }
  const echo_id = `echo-${Date.now()}-${++echoCounter}`;
  const draft: ChatMessage = { echo_id, content, message_type: 0, content_type: "text", content_attributes: {}, created_at: Date.now() / 1000 };
  view.upsert(draft);
  const page = { referer_url: document.referrer || null, timestamp: new Date().toString() };
  let body: unknown = { message: { content, echo_id, ...page } };
  if (files.length) {
    const form = new FormData();
    form.append("message[content]", content);
    form.append("message[echo_id]", echo_id);
    if (page.referer_url) form.append("message[referer_url]", page.referer_url);
    for (const file of files) form.append("message[attachments][]", file, file.name);
    body = form;
  }
  try {
    view.upsert(await api.call<ChatMessage>("POST", "/messages", body));
    hasConversation = true;
  } catch (error) {
    view.upsert({ ...draft, failed: true });
    reportError(error);
  }
}

function markSeen() {
  if (isOpen && hasConversation) api.call("POST", "/conversations/update_last_seen").catch(() => undefined);
}

async function loadMessages() {
  const messages = await api.call<ChatMessage[]>("GET", "/messages");
  hasConversation = messages.length > 0;
  view.replaceAll(messages);
}

function onPush({ event, data }: Pushed) {
  if (event === "message.created" || event === "message.updated") {
    const message = data as unknown as ChatMessage;
    if (message.private || message.message_type === 2) return;
    hasConversation = true;
    view.upsert(message);
    if (message.message_type !== 0) {
      toPage({ event: "onMessage", data: message });
      markSeen();
    }
  } else if (event === "conversation.typing_on" || event === "conversation.typing_off") {
    if (!data.is_private) view.showTyping(event === "conversation.typing_on");
  } else if (event === "conversation.created") {
    hasConversation = true;
  }
}

let unsubscribe = subscribeVisitor(boot.pubsubToken, onPush);

/** set_user for another person: the widget carries on as the new visitor, whose session the page keeps. */
async function setUser(identifier: unknown, user: Record<string, unknown>) {
  const result = await api.call<{ pubsub_token: string; widget_auth_token?: string }>("PATCH", "/contact/set_user", { ...user, identifier });
  if (!result.widget_auth_token) return;
  api.authToken = result.widget_auth_token;
  toPage({ event: "setAuthCookie", data: { widgetAuthToken: result.widget_auth_token } });
  unsubscribe();
  unsubscribe = subscribeVisitor(result.pubsub_token, onPush);
  await loadMessages();
}

function fromPage(message: BridgeMessage): Promise<unknown> | void {
  switch (message.event) {
    case "toggle-open":
      isOpen = Boolean(message.isOpen);
      if (isOpen) {
        campaigns.onOpen();
        view.focusComposer();
        markSeen();
      }
      return;
    case "config-set":
      if (message.campaignsSnoozedTill) campaigns.snoozeUntil(Number(message.campaignsSnoozedTill));
    // falls through: config-set names the locale too
    case "set-locale":
      if (typeof message.locale === "string") {
        locale = message.locale;
        view.relabel(stringsFor(locale), locale);
      }
      return;
    case "change-url":
      return campaigns.onPage(String(message.referrerURL ?? ""));
    case "push-event":
      return api.call("POST", `/events?locale=${encodeURIComponent(locale)}`, { name: message.eventName, event_info: { referer: document.referrer } });
    case "set-user":
      return setUser(message.identifier, message.user as Record<string, unknown>);
    case "set-custom-attributes":
      return api.call("PATCH", "/contact", { custom_attributes: message.customAttributes });
    case "delete-custom-attribute":
      return api.call("POST", "/contact/destroy_custom_attributes", { custom_attributes: [message.customAttribute] });
    case "set-conversation-custom-attributes":
      return api.call("POST", "/conversations/set_custom_attributes", { custom_attributes: message.customAttributes });
    case "set-label":
      return api.call("POST", "/labels", { label: message.label });
    case "remove-label":
      return api.call("DELETE", `/labels/${encodeURIComponent(String(message.label))}`);
  }
}

// Messages from the page run one after another, in the order the site called $chatwoot.
let pageQueue: Promise<unknown> = Promise.resolve();
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const message = decode(event.data);
  if (message) pageQueue = pageQueue.then(() => fromPage(message)).catch(reportError);
});

loadMessages()
  .catch(reportError)
  .finally(() => toPage({ event: "loaded", config: { authToken: boot.authToken, widgetColor: channel.widgetColor, channelConfig: channel } }));
