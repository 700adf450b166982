import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { ApiState } from '../state.js';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Reuses a well-formed X-Request-Id from a proxy, else makes one; echoed in the response. */
export async function requestId(ctx: Context & { state: ApiState }, next: Next): Promise<void> {
  const given = ctx.get('X-Request-Id');
  ctx.state.requestId = CLIENT_ID.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}
