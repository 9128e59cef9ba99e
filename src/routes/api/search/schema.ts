import { z } from "zod";
import { page } from "../../../http/schemas";

export const searchQuery = z.object({ q: z.string().max(1000).optional(), page: page().optional() });

const inbox = z.object({ id: z.number(), channel_id: z.number(), name: z.string(), channel_type: z.string() }).partial();

export const searchContactResponse = z
  .object({
    email: z.string().nullable(),
    id: z.number(),
    name: z.string().nullable(),
    phone_number: z.string().nullable(),
    identifier: z.string().nullable(),
    additional_attributes: z.record(z.string(), z.unknown()),
    last_activity_at: z.number().nullable(),
  })
  .openapi("SearchContact");

export const searchMessageResponse = z
  .object({
    id: z.number(),
    content: z.string().nullable(),
    message_type: z.number(),
    content_type: z.string(),
    source_id: z.string().nullable(),
    inbox_id: z.number(),
    conversation_id: z.number().nullable(),
    created_at: z.number(),
    sender: z.record(z.string(), z.unknown()).optional(),
    inbox,
  })
  .openapi("SearchMessage");

export const searchConversationResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    created_at: z.number(),
    message: z.union([searchMessageResponse, z.object({})]),
    contact: z.union([searchContactResponse, z.object({})]),
    inbox,
    agent: z.object({ id: z.number(), available_name: z.string(), email: z.string(), name: z.string(), role: z.string().nullable() }).partial(),
    additional_attributes: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("SearchConversation");

export const searchAllResponse = z
  .object({
    payload: z.object({
      conversations: z.array(searchConversationResponse),
      contacts: z.array(searchContactResponse),
      messages: z.array(searchMessageResponse),
    }),
  })
  .openapi("SearchResults");
export const searchConversationsResponse = z
  .object({ payload: z.object({ conversations: z.array(searchConversationResponse) }) })
  .openapi("SearchConversations");
export const searchContactsResponse = z.object({ payload: z.object({ contacts: z.array(searchContactResponse) }) }).openapi("SearchContacts");
export const searchMessagesResponse = z.object({ payload: z.object({ messages: z.array(searchMessageResponse) }) }).openapi("SearchMessages");

export const searchArticleResponse = z
  .object({
    id: z.number(),
    title: z.string(),
    locale: z.string(),
    content: z.string(),
    slug: z.string(),
    portal_slug: z.string(),
    account_id: z.number(),
    category_name: z.string().nullable(),
    status: z.enum(["draft", "published", "archived"]),
    updated_at: z.number(),
  })
  .openapi("SearchArticle");
export const searchArticlesResponse = z.object({ payload: z.object({ articles: z.array(searchArticleResponse) }) }).openapi("SearchArticles");
