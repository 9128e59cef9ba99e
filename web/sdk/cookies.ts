/** The host page's cookies the SDK keeps: the widget session (cw_conversation), as Chatwoot's SDK names it. */
export const SESSION_COOKIE = "cw_conversation";
const YEAR_SECONDS = 365 * 24 * 3600;

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split("; ").find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

export function writeCookie(name: string, value: string, domain?: string): void {
  const scope = domain ? `; domain=${domain}` : "";
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${YEAR_SECONDS}; path=/; SameSite=Lax${scope}`;
}

export function removeCookie(name: string, domain?: string): void {
  const scope = domain ? `; domain=${domain}` : "";
  document.cookie = `${name}=; max-age=0; path=/${scope}`;
}
