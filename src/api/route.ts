import type { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { KeyType, Principal } from '../identity/model.js';
import type { RateLimitFamily, RateLimiter } from '../ratelimit/rate-limiter.js';
import { authenticate } from './middleware/authenticate.js';
import { publicCors, publicCorsPreflight } from './middleware/cors.js';
import { readJsonBody } from './middleware/json-body.js';
import { rateLimit, type HourlyLimits } from './middleware/rate-limit.js';
import type { Counter } from 'prom-client';
import type { ApiState } from './state.js';

type AnyObject = z.ZodObject;

/**
 * One API operation, declared once: the router mounts it (auth -> validate -> precheck -> rate
 * limit -> handler -> response check) and the OpenAPI document describes it from the same schemas.
 */
export interface RouteDefinition<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType, C = void> {
  operationId: string;
  method: 'get' | 'post';
  /** OpenAPI template, e.g. /v1/static-export/jobs/{jobId}; also the metrics label. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  keyType: KeyType;
  family: RateLimitFamily;
  /**
   * Checks of the caller and the input (the plan, date order, the domain) that run before the rate
   * limit, so a request they reject costs no budget and writes nothing. What it returns reaches
   * handle() as `checked`, so nothing is looked up twice.
   */
  precheck?: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B>; principal: Principal }) => C | Promise<C>;
  /** Browsers on any origin may call it (assistant endpoints). */
  cors?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response: { status: 200 | 202; name: string; schema: R; description: string };
  /** Error statuses this operation can answer with, for the document. */
  errors: readonly number[];
  handle(input: { params: z.output<P>; query: z.output<Q>; body: z.output<B>; principal: Principal; ctx: Context; checked: C }): Promise<z.input<R>>;
}

// The variance of handle() makes a precise union impractical; definitions are checked where written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any, any, any, any>;

/** Identity helper that keeps each definition's own types. */
type NoFields = z.ZodObject<Record<never, z.ZodType>>;

export function defineRoute<P extends AnyObject = NoFields, Q extends AnyObject = NoFields, B extends z.ZodType = z.ZodUndefined, R extends z.ZodType = z.ZodType, C = void>(
  route: RouteDefinition<P, Q, B, R, C>,
): RouteDefinition<P, Q, B, R, C> {
  return route;
}

export interface RouteDeps {
  identity: Pick<IdentityStore, 'authenticate'>;
  rateLimiter: RateLimiter;
  limits: HourlyLimits;
  bodyLimitBytes: number;
  rateLimited: Counter<'family'>;
}

export const koaPath = (template: string): string => template.replace(/\{(\w+)\}/g, ':$1');

/** Zod issues of one location as field-naming details: "body.filter.tag: ...". */
function issuesOf(location: 'params' | 'query' | 'body', error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => {
    const path = [location, ...issue.path.map(String)].join('.');
    const message = issue.code === 'invalid_type' && issue.message.endsWith('received undefined') ? 'required' : issue.message;
    return { path, message: `${path}: ${message}` };
  });
}

function validate(route: AnyRoute, bodyLimitBytes: number) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const problems: Array<{ path: string; message: string }> = [];
    const parse = <S extends z.ZodType>(location: 'params' | 'query' | 'body', schema: S | undefined, value: unknown): unknown => {
      if (!schema) return {};
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      problems.push(...issuesOf(location, result.error));
      return undefined;
    };
    const params = parse('params', route.params, (ctx as Context & { params?: Record<string, string> }).params ?? {});
    const query = parse('query', route.query, ctx.query);
    const rawBody = route.body ? await readJsonBody(ctx, bodyLimitBytes) : undefined;
    const body = route.body ? parse('body', route.body, rawBody) : undefined;
    if (problems.length > 0) throw new InputError('invalid request', problems);
    ctx.state.input = { params, query, body };
    await next();
  };
}

/** Mounts a definition on the router with its middleware chain. */
export function mountRoute(router: Router, route: AnyRoute, deps: RouteDeps): void {
  const path = koaPath(route.path);
  const setRoute = async (ctx: Context & { state: ApiState }, next: Next): Promise<void> => {
    ctx.state.route = route.path;
    await next();
  };
  type Checked = Context & { state: ApiState & { input: { params: unknown; query: unknown; body: unknown }; checked?: unknown } };
  const precheck = async (ctx: Checked, next: Next): Promise<void> => {
    ctx.state.checked = await route.precheck?.({ ...ctx.state.input, principal: ctx.state.principal! });
    await next();
  };
  const handler = async (ctx: Checked): Promise<void> => {
    const { params, query, body } = ctx.state.input;
    const result: unknown = await route.handle({ params, query, body, principal: ctx.state.principal!, ctx, checked: ctx.state.checked });
    const checked = (route.response.schema as z.ZodType).safeParse(result);
    if (!checked.success) throw new Error(`response of ${route.operationId} breaks its schema: ${checked.error.message}`);
    ctx.status = route.response.status;
    ctx.body = checked.data;
  };
  const chain = [
    setRoute,
    ...(route.cors ? [publicCors] : []),
    authenticate(deps.identity, route.keyType),
    validate(route, deps.bodyLimitBytes),
    precheck,
    rateLimit(deps.rateLimiter, deps.limits, route.family, deps.rateLimited),
    handler,
  ];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (router[route.method] as (path: string, ...middleware: any[]) => unknown)(path, ...chain);
  if (route.cors) router.options(path, setRoute, publicCorsPreflight([route.method.toUpperCase()]));
}
