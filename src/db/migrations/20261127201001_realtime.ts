import type { Knex } from "knex";

/**
 * Live updates (src/realtime): the broadcasts the relay's realtime consumer makes of committed events,
 * which every API process reads when notified and pushes to its /cable subscribers, and the presence
 * of connected agents and visitors, which every process reads to tell who is online.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE realtime_broadcasts (
    id bigserial PRIMARY KEY,
    -- The outbox event it was made of (one event may make two: conversation.updated and assignee.changed).
    event_id bigint NOT NULL,
    account_id integer NOT NULL,
    inbox_id integer,
    name text NOT NULL,
    data jsonb NOT NULL,
    -- Who receives it: the inbox's members and the account's administrators, every agent of the account, and/or one visitor.
    to_inbox boolean NOT NULL DEFAULT false,
    to_account boolean NOT NULL DEFAULT false,
    contact_token text,
    -- The subscriber who caused it (typing) and does not receive it.
    except_token text,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- The relay may plan an event again after a failed hand-over: the second plan adds nothing.
    UNIQUE (event_id, name)
  )`);
  await knex.raw("CREATE INDEX realtime_broadcasts_created_at ON realtime_broadcasts (created_at)");
  await knex.raw(`CREATE TABLE realtime_presence (
    -- One row per subscription, online while its process's heartbeat keeps it from expiring.
    id uuid PRIMARY KEY,
    account_id integer NOT NULL,
    user_id integer,
    contact_id integer,
    expires_at timestamptz NOT NULL,
    pubsub_token text NOT NULL,
    -- The API process serving it (its LISTEN connection's application_name names it).
    process_id uuid NOT NULL,
    -- The newest broadcast its process had handled: a client coming back after a restart is sent what came after.
    seen_broadcast_id bigint NOT NULL DEFAULT 0,
    -- Set when its connection closed; null while it is live (or its process died).
    left_at timestamptz,
    CHECK ((user_id IS NULL) <> (contact_id IS NULL))
  )`);
  await knex.raw("CREATE INDEX realtime_presence_token ON realtime_presence (pubsub_token)");
  await knex.raw("CREATE INDEX realtime_presence_account ON realtime_presence (account_id, expires_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE realtime_presence");
  await knex.raw("DROP TABLE realtime_broadcasts");
}
