import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';
import { startService, waitUntilReady } from './service-process.js';

export interface LocalS3 {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts the SigV4-checking S3 server on loopback with fresh random credentials. */
export async function startS3(dir: string): Promise<LocalS3> {
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const accessKeyId = `DOCPORT${randomBytes(6).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const entry = fileURLToPath(new URL('./s3/s3-server-main.js', import.meta.url));
  const service = startService('s3', process.execPath, ['--openssl-legacy-provider', entry], path.join(dir, 's3.log'), {
    env: { PATH: process.env.PATH, S3_PORT: String(port), S3_DIR: dataDir, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
  });
  await waitUntilReady(service, async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return response.status === 403; // unsigned request: the server is up and checking signatures
  }, 30_000);
  return { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId, secretAccessKey, stop: () => service.stop('SIGTERM') };
}
