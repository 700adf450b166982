import type { Context, Next } from 'koa';

/**
 * Search is called from documentation pages in browsers with assistant keys, which are public by
 * design: any origin may call it, without cookies. Admin endpoints send no CORS headers at all,
 * so browsers refuse to expose their responses to other sites.
 */
export async function publicCors(ctx: Context, next: Next): Promise<void> {
  ctx.set({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id',
  });
  await next();
}

export function publicCorsPreflight(methods: readonly string[]) {
  return (ctx: Context): void => {
    ctx.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id',
      'Access-Control-Max-Age': '600',
    });
    ctx.status = 204;
  };
}
