import type { WebChannel } from "./config";
import { type ChatMessage, type MessageActions, renderMessage } from "./messageView";
import type { Strings } from "./strings";

export interface ViewHandlers extends MessageActions {
  close(): void;
  send(content: string, files: File[]): void;
  typing(on: boolean): void;
}

/** A dark or light text colour, whichever reads better on the widget colour. */
function onColor(hex: string): string {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return "#fff";
  const value = parseInt(match[1]!, 16);
  const luminance = (0.299 * (value >> 16) + 0.587 * ((value >> 8) & 255) + 0.114 * (value & 255)) / 255;
  return luminance > 0.6 ? "#1f2d3d" : "#fff";
}

const STOPPED_TYPING_MS = 3000;
/** Both of Chatwoot's UIs drop a typing indicator no typing_off followed. */
const TYPING_SHOWN_MS = 30_000;

/** The widget's page: header (title, tagline, open or away), the message log and the composer. */
export function buildView(channel: WebChannel, initialStrings: Strings, open: boolean, handlers: ViewHandlers) {
  let strings = initialStrings;
  const root = document.getElementById("cw-app")!;
  document.documentElement.style.setProperty("--cw-color", channel.widgetColor);
  document.documentElement.style.setProperty("--cw-on-color", onColor(channel.widgetColor));

  root.innerHTML = `
<header class="cw-header">
  <h1 id="cw-title"></h1>
  <p id="cw-tagline"></p>
  <div class="cw-status"><span class="cw-dot" aria-hidden="true"></span><span id="cw-status"></span></div>
  <p class="cw-away" id="cw-away" hidden></p>
  <button type="button" class="cw-close" id="cw-close">&times;</button>
</header>
<ol class="cw-log" id="cw-log" role="log" aria-live="polite"></ol>
<div class="cw-typing" id="cw-typing" aria-live="polite"></div>
<form class="cw-composer" id="cw-composer">
  <label class="cw-visually-hidden" for="cw-input" id="cw-input-label"></label>
  <textarea id="cw-input" rows="1" maxlength="150000"></textarea>
  <input type="file" id="cw-file" class="cw-file-input" multiple hidden>
  <label for="cw-file" class="cw-file-label" id="cw-file-label" hidden>+</label>
  <button type="submit" id="cw-send">&#10148;</button>
</form>`;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const log = $<HTMLOListElement>("cw-log");
  const input = $<HTMLTextAreaElement>("cw-input");
  const fileInput = $<HTMLInputElement>("cw-file");
  const typingLine = $<HTMLDivElement>("cw-typing");

  $("cw-title").textContent = channel.welcomeTitle || channel.websiteName;
  $("cw-tagline").textContent = channel.welcomeTagline ?? "";
  (document.querySelector(".cw-dot") as HTMLElement).classList.toggle("cw-online", open);
  const away = $<HTMLParagraphElement>("cw-away");
  away.hidden = open || !channel.outOfOfficeMessage;
  away.textContent = channel.outOfOfficeMessage ?? "";
  if (channel.enabledFeatures.includes("attachments")) {
    fileInput.hidden = false;
    $("cw-file-label").hidden = false;
  }

  const relabel = (next: Strings, locale?: string) => {
    strings = next;
    if (locale) document.documentElement.lang = locale.replace("_", "-");
    $("cw-status").textContent = open ? `${strings.online}. ${strings.replyTime[channel.replyTime] ?? ""}` : strings.away;
    $("cw-close").setAttribute("aria-label", strings.close);
    $("cw-input-label").textContent = strings.composer;
    input.placeholder = strings.composer;
    $("cw-send").setAttribute("aria-label", strings.send);
    $("cw-file-label").setAttribute("aria-label", strings.attach);
    $("cw-file-label").title = strings.attach;
    log.setAttribute("aria-label", strings.messages);
  };
  relabel(strings);

  if (channel.greetingEnabled && channel.greetingMessage) {
    const greeting = renderMessage(
      { content: channel.greetingMessage, message_type: 1, content_type: "text", content_attributes: {}, created_at: 0 },
      handlers,
      strings,
    );
    greeting.classList.add("cw-greeting");
    log.appendChild(greeting);
  }

  const scrollDown = () => (log.scrollTop = log.scrollHeight);
  const upsert = (message: ChatMessage) => {
    const node = renderMessage(message, handlers, strings);
    const existing =
      (message.id !== undefined && log.querySelector(`[data-id="${message.id}"]`)) ||
      (message.echo_id && log.querySelector(`[data-echo="${CSS.escape(message.echo_id)}"]`));
    if (existing) existing.replaceWith(node);
    else log.appendChild(node);
    if (message.message_type !== 0) showTyping(false);
    scrollDown();
  };
  const replaceAll = (messages: ChatMessage[]) => {
    log.querySelectorAll(".cw-message:not(.cw-greeting)").forEach((node) => node.remove());
    messages.forEach(upsert);
  };

  let typingShown: ReturnType<typeof setTimeout> | undefined;
  function showTyping(on: boolean) {
    clearTimeout(typingShown);
    typingLine.textContent = on ? `${strings.typing}…` : "";
    if (on) typingShown = setTimeout(() => showTyping(false), TYPING_SHOWN_MS);
  }

  let typing: ReturnType<typeof setTimeout> | undefined;
  const stopTyping = () => {
    if (typing === undefined) return;
    clearTimeout(typing);
    typing = undefined;
    handlers.typing(false);
  };
  input.addEventListener("input", () => {
    if (typing === undefined) handlers.typing(true);
    clearTimeout(typing);
    typing = setTimeout(stopTyping, STOPPED_TYPING_MS);
  });
  const submit = () => {
    const content = input.value.trim();
    const files = [...(fileInput.files ?? [])];
    if (!content && !files.length) return;
    stopTyping();
    handlers.send(content, files);
    input.value = "";
    fileInput.value = "";
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  });
  $("cw-composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  $("cw-close").addEventListener("click", handlers.close);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") handlers.close();
  });

  return { upsert, replaceAll, showTyping, focusComposer: () => input.focus(), relabel };
}
