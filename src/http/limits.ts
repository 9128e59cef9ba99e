/**
 * The longest string each family of fields may hold, in characters. Chatwoot's where it has one:
 * ApplicationRecord caps every string column at 255 and every text column at 20,000 unless the model
 * says otherwise (Message content 150,000; an inbox's greeting and out-of-office messages 10,000;
 * URLs Limits::URL_LENGTH_LIMIT 2048; an account's domain 100; Devise's passwords 128). docs/limits.md
 * lists which fields are in which family. A value over its limit is a 422 naming the field.
 */
export const MAX_LENGTH = {
  /** Names, titles, emails, identifiers, codes, tokens, timezones, dates: a string column. */
  string: 255,
  /** Descriptions, notes, canned responses, automatic messages: a text column. */
  text: 20_000,
  /** A message's content. */
  message: 150_000,
  /** An inbox's greeting and out-of-office messages. */
  greeting: 10_000,
  url: 2048,
  domain: 100,
  password: 128,
} as const;
