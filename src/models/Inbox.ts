import type { Knex } from "knex";
import { BaseModel } from "./BaseModel";
import { ChannelApi } from "./ChannelApi";
import { ChannelWebWidget } from "./ChannelWebWidget";

export const CHANNEL_TYPES = ["Channel::Api", "Channel::WebWidget"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export type Channel = ChannelApi | ChannelWebWidget;

/** The request's `channel.type` for each channel class, as Chatwoot's inboxes controller names them. */
export const CHANNEL_REQUEST_TYPES = { api: "Channel::Api", web_widget: "Channel::WebWidget" } as const satisfies Record<string, ChannelType>;

export interface WorkingHour {
  day_of_week: number;
  closed_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
  open_all_day: boolean;
}

/** Chatwoot's default schedule for a new inbox: weekdays 9 to 5, weekends closed. */
export function defaultWorkingHours(): WorkingHour[] {
  return Array.from({ length: 7 }, (_, day) => {
    const weekend = day === 0 || day === 6;
    return {
      day_of_week: day,
      closed_all_day: weekend,
      open_hour: weekend ? null : 9,
      open_minutes: weekend ? null : 0,
      close_hour: weekend ? null : 17,
      close_minutes: weekend ? null : 0,
      open_all_day: false,
    };
  });
}

const channelModels = { "Channel::Api": ChannelApi, "Channel::WebWidget": ChannelWebWidget } as const;

/**
 * One query handle for either channel table. Objection cannot type a union of model classes, so the
 * handle is typed as one of them; rows still come back as instances of their own class.
 */
function channelModel(type: ChannelType): typeof ChannelApi {
  return channelModels[type] as unknown as typeof ChannelApi;
}

export class Inbox extends BaseModel {
  static tableName = "inboxes";
  static jsonAttributes = ["working_hours", "csat_config", "auto_assignment_config"];

  declare account_id: number;
  declare name: string;
  declare channel_type: ChannelType;
  declare channel_id: number;
  declare avatar_url: string | null;
  /** The stored avatar image (an uploaded file or the fetched avatar_url), when there is one. */
  declare avatar_key: string | null;
  /** The avatar_url last fetched (successfully or not). */
  declare avatar_fetched_url: string | null;
  declare greeting_enabled: boolean;
  declare greeting_message: string | null;
  declare working_hours_enabled: boolean;
  declare working_hours: WorkingHour[];
  declare out_of_office_message: string | null;
  declare timezone: string;
  declare enable_email_collect: boolean;
  declare csat_survey_enabled: boolean;
  declare csat_config: Record<string, unknown>;
  declare enable_auto_assignment: boolean;
  declare auto_assignment_config: Record<string, unknown>;
  declare allow_messages_after_resolved: boolean;
  declare lock_to_single_conversation: boolean;
  declare sender_name_type: string;
  declare business_name: string | null;

  /** The account's inboxes in Chatwoot's order_by_name. */
  static ofAccount(accountId: number, db?: Knex) {
    return Inbox.query(db).where("account_id", accountId).orderByRaw("lower(name), id");
  }

  static async findInAccount(accountId: number, id: number, db?: Knex): Promise<Inbox | undefined> {
    return Inbox.query(db).findOne({ id, account_id: accountId });
  }

  async channel(db?: Knex): Promise<Channel> {
    const channel = await channelModel(this.channel_type).query(db).findById(this.channel_id);
    if (!channel) throw new Error(`inbox ${this.id} has no ${this.channel_type} row ${this.channel_id}`);
    return channel;
  }

  /** Channels of many inboxes with two queries, keyed by inbox id. */
  static async channelsOf(inboxes: Inbox[], db?: Knex): Promise<Map<number, Channel>> {
    const result = new Map<number, Channel>();
    for (const type of CHANNEL_TYPES) {
      const ofType = inboxes.filter((inbox) => inbox.channel_type === type);
      if (!ofType.length) continue;
      const channels: Channel[] = await channelModel(type)
        .query(db)
        .findByIds(ofType.map((inbox) => inbox.channel_id));
      const byId = new Map(channels.map((channel) => [channel.id, channel]));
      for (const inbox of ofType) result.set(inbox.id, byId.get(inbox.channel_id)!);
    }
    return result;
  }

  /** Creates the channel row and its inbox together (Chatwoot's inboxes#create). */
  static async createWithChannel(
    trx: Knex.Transaction,
    accountId: number,
    channelType: ChannelType,
    channelAttributes: Record<string, unknown>,
    inboxAttributes: Partial<Inbox>,
  ): Promise<{ inbox: Inbox; channel: Channel }> {
    const channel: Channel = await channelModel(channelType)
      .query(trx)
      .insert({ ...channelAttributes, ...channelModels[channelType].generatedColumns(), account_id: accountId })
      .returning("*");
    const inbox = await Inbox.query(trx)
      .insert({ working_hours: defaultWorkingHours(), ...inboxAttributes, account_id: accountId, channel_type: channelType, channel_id: channel.id })
      .returning("*");
    return { inbox, channel };
  }

  async updateChannel(trx: Knex.Transaction, attributes: Record<string, unknown>): Promise<Channel> {
    if (!Object.keys(attributes).length) return this.channel(trx);
    return channelModel(this.channel_type).query(trx).patchAndFetchById(this.channel_id, attributes);
  }

  /**
   * Removes the inbox with everything that lives in it (conversations, their messages, contact
   * inboxes, members, the bot link) and its channel, as Chatwoot's dependent destroys do.
   */
  async destroyWithDependents(trx: Knex.Transaction): Promise<void> {
    const conversations = trx("conversations").select("id").where("inbox_id", this.id);
    await trx("messages").whereIn("conversation_id", conversations).delete();
    await trx("messages").where("inbox_id", this.id).delete();
    await trx("conversations").where("inbox_id", this.id).delete();
    await Inbox.query(trx).deleteById(this.id);
    await channelModel(this.channel_type).query(trx).deleteById(this.channel_id);
  }
}
