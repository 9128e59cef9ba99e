import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { SERVICE_VERSION } from "../config";

extendZodWithOpenApi(z);

/** Every route registers its zod schemas here; the document is generated from them, never written by hand. */
export const registry = new OpenAPIRegistry();

export const SECURITY_SCHEMES = {
  userApiKey: "User access token from the profile page",
  agentBotApiKey: "Access token of an agent bot",
  platformAppApiKey: "Access token of a platform app",
} as const;
export type SecurityScheme = keyof typeof SECURITY_SCHEMES;

for (const [name, description] of Object.entries(SECURITY_SCHEMES)) {
  registry.registerComponent("securitySchemes", name, {
    type: "apiKey",
    in: "header",
    name: "api_access_token",
    description,
  });
}

export function openApiDocument() {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Conversation and Scheduling Service",
      version: SERVICE_VERSION,
      description: "Chatwoot-compatible account and platform APIs with a native scheduling area.",
    },
  });
}
