/** The host page's cookies the SDK keeps: the widget session (cw_conversation), as Chatwoot's SDK names it. */
export const SESSION_COOKIE = "cw_conversation";
/** Until when (Unix milliseconds) the widget starts no campaign, as Chatwoot's SDK keeps it. */
export const CAMPAIGN_SNOOZE_COOKIE = "cw_snooze_campaigns_till";
const YEAR_SECONDS = 365 * 24 * 3600;

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split("; ").find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

export function writeCookie(name: string, value: string, domain?: string, maxAgeSeconds = YEAR_SECONDS): void {
  const scope = domain ? `; domain=${domain}` : "";
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${maxAgeSeconds}; path=/; SameSite=Lax${scope}`;
}

export function removeCookie(name: string, domain?: string): void {
  const scope = domain ? `; domain=${domain}` : "";
  document.cookie = `${name}=; max-age=0; path=/${scope}`;
}
