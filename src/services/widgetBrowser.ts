/**
 * What Chatwoot's widget controllers learn about the visitor's browser (the `browser` gem behind
 * `browser_params` and `browser.accept_language`), kept to the common browsers and platforms: the
 * first matching rule wins, in the gem's order, and anything unrecognised reads as the gem's
 * defaults ("Unknown Browser" "0.0", device "Unknown", platform "Other" "0").
 */

export interface BrowserInfo {
  browser_name: string;
  browser_version: string;
  device_name: string;
  platform_name: string;
  platform_version: string;
}

interface Rule {
  name: string | ((ua: string) => string);
  match: RegExp;
  /** First capture group is the version; dots may come as underscores (iOS, macOS). */
  version?: RegExp;
  fallback: string;
}

/** Edge, Opera and Samsung Internet also say "Chrome" and "Safari", so they come first. */
const BROWSERS: Rule[] = [
  { name: "Microsoft Edge", match: /\b(?:Edge?|EdgA|EdgiOS)\//, version: /\b(?:Edge?|EdgA|EdgiOS)\/([\d.]+)/, fallback: "0.0" },
  { name: "Opera", match: /\bOPR\/|\bOpera\b/, version: /(?:OPR|Version|Opera)\/([\d.]+)/, fallback: "0.0" },
  { name: "Samsung Browser", match: /\bSamsungBrowser\//, version: /SamsungBrowser\/([\d.]+)/, fallback: "0.0" },
  { name: "Internet Explorer", match: /\bMSIE\b|\bTrident\//, version: /(?:MSIE |\brv:)([\d.]+)/, fallback: "0.0" },
  { name: "Firefox", match: /\b(?:Firefox|FxiOS)\//, version: /(?:Firefox|FxiOS)\/([\d.]+)/, fallback: "0.0" },
  { name: "Chrome", match: /\b(?:Chrome|CriOS)\//, version: /(?:Chrome|CriOS)\/([\d.]+)/, fallback: "0.0" },
  { name: "Safari", match: /\bSafari\//, version: /Version\/([\d.]+)/, fallback: "0.0" },
  { name: "Unknown Browser", match: /(?:)/, fallback: "0.0" },
];

/** iOS and Android user agents also name "Mac OS X" and "Linux", so they come before those. */
const PLATFORMS: Rule[] = [
  { name: "Chrome OS", match: /\bCrOS\b/, version: /CrOS(?: \w+)? ([\d.]+)/, fallback: "0" },
  { name: "Android", match: /\bAndroid\b/, version: /Android ([\d.]+)/, fallback: "0" },
  { name: (ua) => `iOS (${/iPhone|iPad|iPod/.exec(ua)![0]})`, match: /iPhone|iPad|iPod/, version: /OS ([\d_.]+)/, fallback: "0" },
  { name: "Macintosh", match: /\bMac/, version: /Mac OS X\s*([\d_.]+)/, fallback: "0" },
  { name: "Windows", match: /\bWindows\b/, version: /Windows NT\s*([\d_.]+)/, fallback: "0" },
  { name: "Generic Linux", match: /\bLinux\b/, fallback: "0" },
  { name: "Other", match: /(?:)/, fallback: "0" },
];

const DEVICES: { name: string; match: RegExp }[] = [
  { name: "iPad", match: /\biPad\b/ },
  { name: "iPhone", match: /\biPhone\b/ },
  { name: "iPod Touch", match: /\biPod\b/ },
  { name: "Unknown", match: /(?:)/ },
];

function detect(rules: Rule[], ua: string): { name: string; version: string } {
  const rule = rules.find((r) => r.match.test(ua))!;
  const version = rule.version?.exec(ua)?.[1]?.replace(/_/g, ".") ?? rule.fallback;
  return { name: typeof rule.name === "function" ? rule.name(ua) : rule.name, version };
}

export function browserInfo(userAgent: string | undefined): BrowserInfo {
  const ua = userAgent ?? "";
  const browser = detect(BROWSERS, ua);
  const platform = detect(PLATFORMS, ua);
  return {
    browser_name: browser.name,
    browser_version: browser.version,
    device_name: DEVICES.find((d) => d.match.test(ua))!.name,
    platform_name: platform.name,
    platform_version: platform.version,
  };
}

/**
 * `browser.accept_language.first&.code`: the language (no region, lower case) the visitor prefers
 * most; among equal q-values the first listed, where the gem's unstable sort may pick another.
 */
export function browserLanguage(acceptLanguage: string | undefined): string | null {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { code: tag.trim().split("-")[0]!.toLowerCase(), quality: q === undefined ? 1 : Number(q) || 0, index };
    })
    .filter((language) => language.code && language.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked[0]?.code ?? null;
}
