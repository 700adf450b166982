// Child-process entry of the local S3-compatible server (@20minutes/s3rver, which
// checks SigV4 signatures). Run with `node --openssl-legacy-provider`.
// Environment: S3_PORT, S3_DIR, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY.
// Prints one JSON line {"port": N} on stdout when it listens.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
type Ctx = {
  path: string;
  method: string;
  query: Record<string, unknown>;
  get(header: string): string;
  status: number;
  type: string;
  body: string;
};
type V4 = { getStringToSign: (canonical: { uri: string }, request: unknown) => string };
const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => {
  use(mw: (ctx: Ctx, next: () => Promise<void>) => Promise<void>): void;
  middleware: unknown[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};
const v4 = require('@20minutes/s3rver/lib/signature/v4.js') as V4;
const AWSAccount = require('@20minutes/s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void; revokeAccessKey(id: string): void };
};

const env = process.env;
const accessKeyId = env.S3_ACCESS_KEY_ID;
const secret = env.S3_SECRET_ACCESS_KEY;
if (!accessKeyId || !secret || !env.S3_DIR) {
  console.error('S3_DIR, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required');
  process.exit(2);
}

// s3rver rebuilds the canonical URI from route params and so drops the trailing
// slash of bucket-level paths (`/bucket/`), which real S3 and the AWS SDK keep.
// Sign over the path exactly as received, like S3 does; everything else is s3rver's own check.
const requestPath = new AsyncLocalStorage<string>();
const original = v4.getStringToSign.bind(v4);
v4.getStringToSign = (canonical, request) => {
  const raw = requestPath.getStore();
  if (raw !== undefined && raw.endsWith('/') && raw.length > 1 && canonical.uri === raw.slice(0, -1)) {
    return original({ ...canonical, uri: raw }, request);
  }
  return original(canonical, request);
};

// Only the configured credentials are valid; drop the well-known default pair.
AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKeyId, secret);

const server = new S3rver({
  address: '127.0.0.1',
  port: Number(env.S3_PORT ?? 0),
  directory: env.S3_DIR,
  silent: true,
  vhostBuckets: false,
  allowMismatchedSignatures: false,
});
// Runs before every s3rver middleware so the signature check above sees the raw path.
server.middleware.unshift((ctx: Ctx, next: () => Promise<void>) => requestPath.run(ctx.path, next));
// s3rver has no ACLs and serves anonymous requests; buckets here are private, as in S3.
server.middleware.unshift(async (ctx: Ctx, next: () => Promise<void>) => {
  const signed = ctx.get('authorization') !== '' || 'X-Amz-Signature' in ctx.query || 'Signature' in ctx.query;
  if (!signed && ctx.method !== 'OPTIONS') { // CORS preflights are never signed
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    return;
  }
  await next();
});

const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
const shutdown = (): void => void server.close().finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
