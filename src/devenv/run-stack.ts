// `make run`: starts the local stack on embedded defaults and keeps it up until Ctrl-C.
// Today that is the real components (etcd + kube-apiserver with the StaticExport CRD,
// PostgreSQL, the S3 server); the API and the controller join as they land.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack } from './stack.js';

const run = promisify(execFile);

async function main(): Promise<void> {
  const stack = await startStack({
    databaseUrl: process.env.DATABASE_URL || undefined,
    log: (line) => console.log(`[run] ${line}`),
  });
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[run] ${signal}: stopping`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await run('kubectl', ['--kubeconfig', stack.env.DOCPORT_KUBECONFIG, 'apply', '--server-side', '-f', 'crds/']);
  const envFile = path.join('.data', 'dev', 'stack.env');
  await mkdir(path.dirname(envFile), { recursive: true });
  await writeFile(envFile, Object.entries(stack.env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
  console.log(`[run] stack is up; connection settings (with credentials) are in ${envFile}`);
  console.log(`[run] try: KUBECONFIG=${stack.env.DOCPORT_KUBECONFIG} kubectl get staticexports -A`);
  console.log('[run] Ctrl-C stops everything');
}

main().catch((error: unknown) => {
  console.error(`[run] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
