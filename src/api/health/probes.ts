import type { Context } from 'koa';
import { UnavailableError } from '../../domain/errors.js';

/** Readiness is what a load balancer acts on: the database must answer and the server must not be draining. */
export interface Readiness {
  draining: boolean;
  check(): Promise<void>;
}

export function healthz(ctx: Context): void {
  ctx.body = { status: 'ok' };
}

export function readyz(readiness: Readiness) {
  return async (ctx: Context): Promise<void> => {
    if (readiness.draining) throw new UnavailableError('shutting down');
    await readiness.check();
    ctx.body = { status: 'ready' };
  };
}
