import type { Strings } from "./strings";

export interface ChatAttachment {
  file_type: string;
  data_url: string;
  thumb_url?: string;
  extension?: string | null;
}

/** A message as the widget API and the cable both give it (the fields the widget reads). */
export interface ChatMessage {
  id?: number;
  echo_id?: string;
  content: string | null;
  message_type: number;
  content_type: string;
  content_attributes: Record<string, unknown>;
  created_at: number;
  private?: boolean;
  attachments?: ChatAttachment[];
  sender?: { name?: string; type?: string };
  /** Client state: the post failed. */
  failed?: boolean;
}

interface Item {
  title?: string;
  value?: unknown;
  name?: string;
  label?: string;
  type?: string;
  placeholder?: string;
  required?: boolean;
  options?: { label?: string; value?: string }[];
  default?: string;
}

export interface MessageActions {
  /** The visitor's answer to a choice or a form (PATCH /messages/:id). */
  answer(message: ChatMessage, submittedValues: Record<string, unknown>[]): void;
  answerEmail(message: ChatMessage, email: string): void;
}

const INCOMING = 0;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const items = (message: ChatMessage) => (Array.isArray(message.content_attributes.items) ? (message.content_attributes.items as Item[]) : []);
const submitted = (message: ChatMessage) => message.content_attributes.submitted_values as Record<string, unknown>[] | undefined;

function choice(message: ChatMessage, actions: MessageActions): HTMLElement {
  const group = el("div", "cw-options");
  group.setAttribute("role", "group");
  const chosen = submitted(message)?.[0];
  for (const item of items(message)) {
    const button = el("button", "cw-option", item.title ?? String(item.value ?? ""));
    button.type = "button";
    if (chosen) {
      button.disabled = true;
      button.setAttribute("aria-pressed", String(chosen.value === item.value));
    }
    button.addEventListener("click", () => actions.answer(message, [{ title: item.title, value: item.value }]));
    group.appendChild(button);
  }
  return group;
}

function form(message: ChatMessage, actions: MessageActions, strings: Strings): HTMLElement {
  const node = el("form", "cw-form");
  const answers = new Map((submitted(message) ?? []).map((value) => [value.name, value.value]));
  const fields = items(message).map((item, index) => {
    const id = `cw-field-${message.id}-${index}`;
    const label = el("label", undefined, item.label ?? item.name ?? "");
    label.htmlFor = id;
    let input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
    if (item.type === "select") {
      input = el("select");
      for (const option of item.options ?? []) {
        const node = el("option", undefined, option.label ?? option.value ?? "");
        node.value = option.value ?? "";
        input.appendChild(node);
      }
    } else if (item.type === "text_area") {
      input = el("textarea");
    } else {
      input = el("input");
      input.type = item.type === "email" ? "email" : "text";
    }
    input.id = id;
    input.name = item.name ?? `field_${index}`;
    input.required = Boolean(item.required);
    if ("placeholder" in input) input.placeholder = item.placeholder ?? "";
    input.value = String(answers.get(item.name) ?? item.default ?? "");
    input.disabled = answers.size > 0;
    node.append(label, input);
    return { item, input };
  });
  const submit = el("button", "cw-submit", strings.submit);
  submit.type = "submit";
  submit.disabled = answers.size > 0;
  node.appendChild(submit);
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.answer(
      message,
      fields.map(({ item, input }) => ({ name: input.name, title: item.label ?? item.name, value: input.value })),
    );
  });
  return node;
}

function emailRequest(message: ChatMessage, actions: MessageActions, strings: Strings): HTMLElement {
  const node = el("form", "cw-form");
  const id = `cw-email-${message.id}`;
  const label = el("label", undefined, strings.emailLabel);
  label.htmlFor = id;
  const input = el("input");
  input.type = "email";
  input.required = true;
  input.id = id;
  input.autocomplete = "email";
  const given = submitted(message)?.[0]?.value;
  if (typeof given === "string") {
    input.value = given;
    input.disabled = true;
  }
  const submit = el("button", "cw-submit", strings.submit);
  submit.type = "submit";
  submit.disabled = input.disabled;
  node.append(label, input, submit);
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.answerEmail(message, input.value);
  });
  return node;
}

function attachment(file: ChatAttachment): HTMLElement {
  const link = el("a", "cw-attachment");
  link.href = file.data_url;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  if (file.file_type === "image") {
    const image = el("img");
    image.src = file.thumb_url || file.data_url;
    image.alt = `Image attachment${file.extension ? ` (${file.extension})` : ""}`;
    link.appendChild(image);
  } else {
    link.textContent = `Download ${file.extension ?? "file"}`;
  }
  return link;
}

/** One message as a list item: text as text (never markup), files, and the controls of choices and forms. */
export function renderMessage(message: ChatMessage, actions: MessageActions, strings: Strings): HTMLLIElement {
  const mine = message.message_type === INCOMING;
  const node = el("li", `cw-message ${mine ? "cw-mine" : "cw-theirs"}${message.failed ? " cw-failed" : ""}`);
  if (message.id) node.dataset.id = String(message.id);
  if (message.echo_id) node.dataset.echo = message.echo_id;
  const who = el("span", "cw-visually-hidden", `${mine ? strings.you : (message.sender?.name ?? "")}: `);
  node.appendChild(who);
  if (message.content) node.appendChild(el("p", "cw-text", message.content));
  for (const file of message.attachments ?? []) node.appendChild(attachment(file));
  if (!mine && message.content_type === "input_select") node.appendChild(choice(message, actions));
  if (!mine && message.content_type === "form") node.appendChild(form(message, actions, strings));
  if (!mine && message.content_type === "input_email") node.appendChild(emailRequest(message, actions, strings));
  if (message.failed) node.appendChild(el("span", "cw-error", strings.sendFailed));
  return node;
}
