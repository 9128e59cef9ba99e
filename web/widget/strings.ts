/** The widget's own words; a locale without a table reads English. */
const EN = {
  online: "We are online",
  away: "We are away at the moment",
  replyTime: {
    in_a_few_minutes: "Typically replies in a few minutes",
    in_a_few_hours: "Typically replies in a few hours",
    in_a_day: "Typically replies in a day",
  } as Record<string, string>,
  messages: "Messages",
  composer: "Type your message",
  send: "Send message",
  attach: "Attach a file",
  close: "Close chat",
  typing: "An agent is typing",
  you: "You",
  submit: "Submit",
  sendFailed: "Not sent. Try again.",
  emailLabel: "Your email",
  campaign: "New message",
  dismiss: "Dismiss",
};

const FR: typeof EN = {
  ...EN,
  online: "Nous sommes en ligne",
  away: "Nous sommes absents pour le moment",
  composer: "Écrivez votre message",
  send: "Envoyer le message",
  attach: "Joindre un fichier",
  close: "Fermer la discussion",
  typing: "Un agent écrit",
  you: "Vous",
  submit: "Envoyer",
  sendFailed: "Non envoyé. Réessayez.",
  emailLabel: "Votre e-mail",
  campaign: "Nouveau message",
  dismiss: "Ignorer",
};

const TABLES: Record<string, typeof EN> = { en: EN, fr: FR };

export type Strings = typeof EN;

export function stringsFor(locale: string): Strings {
  return TABLES[locale.split(/[_-]/)[0]!.toLowerCase()] ?? EN;
}
