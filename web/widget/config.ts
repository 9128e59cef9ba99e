/** What the /widget page hands its script (a JSON block the server writes; no inline script). */
export interface WorkingHour {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
}

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
