import { createConsumer } from "@rails/actioncable";

export interface Pushed {
  event: string;
  data: Record<string, unknown>;
}

/** Chatwoot's widget refreshes its presence this often. */
const PRESENCE_MS = 60_000;

/** The visitor's RoomChannel subscription on this server's /cable, as Chatwoot's widget subscribes. */
export function subscribeVisitor(pubsubToken: string, received: (pushed: Pushed) => void): () => void {
  const consumer = createConsumer(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/cable`);
  const subscription = consumer.subscriptions.create({ channel: "RoomChannel", pubsub_token: pubsubToken }, { received });
  const presence = setInterval(() => subscription.perform("update_presence"), PRESENCE_MS);
  return () => {
    clearInterval(presence);
    consumer.disconnect();
  };
}
