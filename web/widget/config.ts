import type { WorkingHour } from "./hours";

/** What the /widget page hands its script (a JSON block the server writes; no inline script). */
export interface WebChannel {
  websiteName: string;
  websiteToken: string;
  widgetColor: string;
  welcomeTitle: string | null;
  welcomeTagline: string | null;
  greetingEnabled: boolean;
  greetingMessage: string | null;
  replyTime: string;
  workingHoursEnabled: boolean;
  workingHours: WorkingHour[];
  outOfOfficeMessage: string | null;
  timezone: string;
  enabledFeatures: string[];
  locale: string;
  avatarUrl: string | null;
}

export interface WidgetBoot {
  authToken: string;
  pubsubToken: string;
  channel: WebChannel;
}

declare global {
  interface Window {
    chatwootWebChannel?: WebChannel;
  }
}

export function readBoot(): WidgetBoot {
  const boot = JSON.parse(document.getElementById("cw-boot")!.textContent!) as WidgetBoot;
  // Chatwoot's widget page names the channel so; scripts written against it find it there.
  window.chatwootWebChannel = boot.channel;
  return boot;
}
