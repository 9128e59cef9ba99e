import { ApplicationFailure } from "@temporalio/common";
import nodemailer, { type Transporter } from "nodemailer";
import type { MailSettings } from "../config";

const transports = new WeakMap<MailSettings, Transporter>();

/** One pooled SMTP transport per settings object (a process has one). */
export function mailTransport(settings: MailSettings): Transporter {
  let transport = transports.get(settings);
  if (!transport) {
    transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      ignoreTLS: settings.ignoreTls,
      name: settings.helo,
      auth: settings.auth ? { user: settings.auth.user, pass: settings.auth.pass } : undefined,
      authMethod: settings.auth?.method,
      tls: { rejectUnauthorized: settings.verifyCertificate },
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    transports.set(settings, transport);
  }
  return transport;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID: a retry of one mail carries the same one, so receivers can tell a repeat. */
  messageId: string;
}

/**
 * Sends one mail. The server refusing it for good (a 5xx reply) fails without retries; a connection
 * problem or a 4xx (try later) throws to be retried by the activity's policy.
 */
export async function sendMail(settings: MailSettings, mail: OutgoingMail): Promise<{ messageId: string }> {
  try {
    const info = await mailTransport(settings).sendMail({ from: settings.from, ...mail });
    return { messageId: String(info.messageId) };
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw ApplicationFailure.nonRetryable(`the mail server refused the mail: ${(err as Error).message}`, "MailRefused");
    throw err;
  }
}
