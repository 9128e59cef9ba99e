/** What GET /api/v1/widget/campaigns gives (Chatwoot's widget campaigns view). DOM-free, so tests may import it. */
export interface WidgetCampaign {
  id: number;
  trigger_rules: { url?: unknown; time_on_page?: unknown };
  trigger_only_during_business_hours: boolean;
  message: string;
  sender: { name: string; avatar_url: string } | null;
}

interface UrlPatternLike {
  test(input: string): boolean;
}
type UrlPatternClass = new (pattern: string) => UrlPatternLike;

const stripSlash = (url: string) => url.replace(/\/$/, "");

/**
 * Chatwoot's isPatternMatchingWithURL: the rule is a URLPattern (wildcards allowed), one ending in a
 * slash also takes any query and fragment, and the page's own trailing slash is ignored. Where the
 * browser has no URLPattern, the rule must equal the page's URL, trailing slashes aside (Chatwoot's
 * earlier rule).
 */
export function matchesPage(rule: string, pageUrl: string): boolean {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return false;
  }
  if (page.pathname.endsWith("/")) page.pathname = page.pathname.slice(0, -1);
  const Pattern = (globalThis as { URLPattern?: UrlPatternClass }).URLPattern;
  if (Pattern) {
    try {
      return new Pattern(rule.endsWith("/") ? `${rule.slice(0, -1)}*\\?*\\#*` : rule).test(page.toString());
    } catch {
      return false;
    }
  }
  return stripSlash(rule) === stripSlash(pageUrl);
}

/** Seconds as the dashboard stores them (a number or numeric text); none or nonsense is at once. */
export function secondsOnPage(campaign: WidgetCampaign): number {
  const seconds = Number(campaign.trigger_rules.time_on_page);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** Chatwoot's filterCampaigns: those whose URL rule matches the page, business-hours ones only while the inbox is open. */
export function campaignsForPage(campaigns: WidgetCampaign[], pageUrl: string, inBusinessHours: boolean): WidgetCampaign[] {
  return campaigns.filter(
    (campaign) =>
      typeof campaign.trigger_rules.url === "string" &&
      matchesPage(campaign.trigger_rules.url, pageUrl) &&
      (!campaign.trigger_only_during_business_hours || inBusinessHours),
  );
}
