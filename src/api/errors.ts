import type { Context, Next } from 'koa';
import { z } from 'zod';
import {
  AuthenticationError, ConflictError, DomainError, InputError, NotAllowedError, NotFoundError, RateLimitedError, UnavailableError,
} from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import type { ApiState } from './state.js';

/** Request-level failures that only exist in HTTP (size, media type, method). */
export class RequestError extends DomainError {
  constructor(readonly status: 405 | 413 | 415, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

export const errorBodySchema = z
  .object({
    error: z.string().describe('What went wrong, in one sentence.'),
    details: z
      .array(z.object({
        message: z.string().describe('One problem; for invalid input it starts with the field, e.g. "body.pageSize: ...".'),
        path: z.string().optional().describe('The field, e.g. query.dateFrom or body.filter.tag, when one is at fault.'),
      }))
      .describe('Individual problems; empty when there is nothing to add.'),
  })
  .describe('Every error response has this shape.');
export type ErrorBody = z.infer<typeof errorBodySchema>;

interface Mapped { status: number; body: ErrorBody; headers: Record<string, string> }

function statusOf(error: Error): number {
  if (error instanceof RequestError) return error.status;
  if (error instanceof InputError) return 400;
  if (error instanceof AuthenticationError) return 401;
  if (error instanceof NotAllowedError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof UnavailableError) return 503;
  return 500;
}

function mapError(error: Error, requestId: string): Mapped {
  const status = statusOf(error);
  if (status >= 500) {
    // Server-side messages can name hosts, tables or keys in storage: the client gets a reference only.
    const summary = status === 503 ? 'service temporarily unavailable, retry later' : 'internal server error';
    return { status, body: { error: summary, details: [{ message: `reference ${requestId} in the server logs` }] }, headers: status === 503 ? { 'Retry-After': '5' } : {} };
  }
  const domain = error as DomainError;
  const headers: Record<string, string> = error instanceof RequestError ? { ...error.headers } : {};
  if (error instanceof RateLimitedError) headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error instanceof AuthenticationError) headers['WWW-Authenticate'] = 'Bearer realm="docport"';
  const details = domain.details.map((d) => ({ message: d.message, ...(d.path !== undefined ? { path: d.path } : {}) }));
  return { status, body: { error: error.message, details }, headers };
}

/**
 * The one place where errors become HTTP: domain errors map to their status with
 * `{error, details}`; anything else is a 500 whose message stays in the log (logged once, here).
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context & { state: ApiState }, next: Next): Promise<void> => {
    try {
      await next();
      // The router answers unknown paths and methods without a body: give them the error shape.
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new NotFoundError(`no such endpoint: ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405) throw new RequestError(405, `method ${ctx.method} not allowed on this endpoint; allowed: ${ctx.response.get('Allow')}`);
        if (ctx.status === 501) throw new RequestError(405, `method ${ctx.method} not supported`);
      }
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(`non-Error thrown: ${String(thrown)}`);
      const mapped = mapError(error, ctx.state.requestId);
      if (mapped.status >= 500) {
        logger.error('request failed', {
          requestId: ctx.state.requestId, method: ctx.method, route: ctx.state.route ?? 'unmatched', status: mapped.status,
          error, ...(error.cause !== undefined ? { cause: error.cause } : {}),
        });
      }
      ctx.status = mapped.status;
      ctx.set(mapped.headers);
      ctx.body = mapped.body;
    }
  };
}
