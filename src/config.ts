import path from "node:path";
import packageJson from "../package.json";

/** Where `npm start` keeps embedded PostgreSQL and Temporal data, relative to the project. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");
export const DATA_DIR = process.env.DATA_DIR ?? path.join(PROJECT_ROOT, ".data");

export const SERVICE_VERSION: string = packageJson.version;

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  platformAppToken: string | undefined;
  /** Largest accepted JSON body; beyond it the API answers 413. */
  bodyLimit: string;
  production: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || "default",
    taskQueue: env.TEMPORAL_TASK_QUEUE || "convo-sched",
    platformAppToken: env.PLATFORM_APP_TOKEN || undefined,
    bodyLimit: env.BODY_LIMIT || "1mb",
    production: env.NODE_ENV === "production",
  };
}

/** The dashboard's base URL (Chatwoot's FRONTEND_URL): widget script hosts and SSO login links point there. */
export function frontendUrl(): string {
  return process.env.FRONTEND_URL || "http://localhost:3000";
}
