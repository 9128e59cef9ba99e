import Router from "@koa/router";
import type { Next } from "koa";
import { z, type ZodObject, type ZodType } from "zod";
import { type ApiError, NotFound } from "../errors";
import { toValidationError } from "../lib/validation";
import { registry, type SecurityScheme } from "../openapi/registry";
import type { Settings } from "../config";
import type { AppContext, AppCustomContext, AppState } from "./context";
import { parseQuery } from "./query";
import { coerceFormValues, isFormRequest, isMultipartRequest, type MultipartLimits, withMultipartBody } from "./multipart";

type Method = "get" | "post" | "put" | "patch" | "delete";

/** Rails' `resources` routes `update` to both PATCH and PUT: a route with `method: UPDATE` answers, and is documented, on both. */
export const UPDATE = ["patch", "put"] as const satisfies readonly Method[];

/** Middleware that runs after routing, so it sees path params. */
export type RouteMiddleware = (ctx: AppContext, next: Next) => Promise<void>;

export interface RouteSpec<P extends ZodObject | undefined, Q extends ZodType | undefined, B extends ZodType | undefined> {
  /** One method, or several answering alike (UPDATE). */
  method: Method | readonly Method[];
  /** Koa path relative to the router's prefix, e.g. "/:id". */
  path: string;
  summary: string;
  /** Path parameters; a value that does not parse is an unknown resource (404), as a Rails find would answer. */
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the success body, for the OpenAPI document. */
  response?: ZodType;
  /** Success status for the document; the handler sets the real one. */
  status?: number;
  /** Extra middleware run before the handler, after authentication (e.g. agent-bot allowance). */
  middleware?: RouteMiddleware[];
  /**
   * The role check, run before the request is validated: as in Chatwoot, where Pundit's check is a
   * before_action, a caller without the role gets 401 whatever the body holds.
   */
  authorize?: (ctx: AppContext) => void;
  /**
   * The body may also come as multipart/form-data (files included), read with these limits; its
   * temporary files are removed when the handler ends. Form values are cast by the body schema.
   * Limits that come from settings are a function of them.
   */
  multipart?: Partial<MultipartLimits> | ((settings: Settings) => Partial<MultipartLimits>) | true;
}

type Out<S> = S extends ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/**
 * A Koa router that validates every request with zod and registers the same schemas in the
 * OpenAPI document, so validation and documentation cannot drift apart.
 */
export class ApiRouter {
  readonly koa: Router<AppState, AppCustomContext>;

  constructor(
    readonly prefix: string,
    private readonly options: {
      tag: string;
      security: SecurityScheme[];
      middleware?: RouteMiddleware[];
      /** The error for a query or body that does not fit its schema; Chatwoot's 422 by default. */
      onInvalid?: (error: z.ZodError) => ApiError;
    },
  ) {
    this.koa = new Router<AppState, AppCustomContext>({ prefix });
  }

  route<P extends ZodObject | undefined = undefined, Q extends ZodType | undefined = undefined, B extends ZodType | undefined = undefined>(
    spec: RouteSpec<P, Q, B>,
    handler: (ctx: AppContext, input: RouteInput<P, Q, B>) => Promise<void>,
  ): this {
    const methods: readonly Method[] = typeof spec.method === "string" ? [spec.method] : spec.method;
    for (const method of methods) this.document(method, spec);
    const validate = (ctx: AppContext) => {
      let params: unknown;
      if (spec.params) {
        const parsed = spec.params.safeParse(ctx.params);
        if (!parsed.success) throw NotFound();
        params = parsed.data;
      }
      const query = spec.query ? this.parse(spec.query, parseQuery(ctx.querystring)) : undefined;
      const raw = (ctx.request as { body?: unknown }).body ?? {};
      const body = spec.body ? this.parse(spec.body, isFormRequest(ctx) ? coerceFormValues(spec.body, raw) : raw) : undefined;
      return { params, query, body } as RouteInput<P, Q, B>;
    };
    const middleware = [...(this.options.middleware ?? []), ...(spec.middleware ?? [])];
    const endpoint = async (ctx: AppContext) => {
      spec.authorize?.(ctx);
      const run = () => handler(ctx, validate(ctx));
      const { multipart } = spec;
      if (multipart && isMultipartRequest(ctx)) {
        const limits = multipart === true ? {} : typeof multipart === "function" ? multipart(ctx.deps.settings) : multipart;
        await withMultipartBody(ctx, limits, run);
      } else await run();
    };
    for (const method of methods) this.koa[method](spec.path, ...middleware, endpoint);
    return this;
  }

  private parse(schema: ZodType, input: unknown): unknown {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    throw (this.options.onInvalid ?? toValidationError)(result.error);
  }

  private document(method: Method, spec: RouteSpec<ZodObject | undefined, ZodType | undefined, ZodType | undefined>) {
    const fullPath = `${this.prefix}${spec.path}`.replace(/\/$/, "") || "/";
    const pathParams = [...fullPath.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const params = pathParams.length ? z.object({ ...Object.fromEntries(pathParams.map((p) => [p, z.string()])), ...spec.params?.shape }) : undefined;
    registry.registerPath({
      method,
      path: fullPath.replace(/:(\w+)/g, "{$1}"),
      summary: spec.summary,
      tags: [this.options.tag],
      security: this.options.security.map((name) => ({ [name]: [] })),
      request: {
        params: params as ZodObject | undefined,
        query: spec.query as ZodObject | undefined,
        body: spec.body
          ? { content: { "application/json": { schema: spec.body }, ...(spec.multipart ? { "multipart/form-data": { schema: spec.body } } : {}) } }
          : undefined,
      },
      responses: {
        [spec.status ?? 200]: {
          description: "Success",
          content: spec.response ? { "application/json": { schema: spec.response } } : undefined,
        },
      },
    });
  }
}
