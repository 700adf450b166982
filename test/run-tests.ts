// `make test`: starts the real components once (etcd + kube-apiserver, PostgreSQL or
// DATABASE_URL, the SigV4-checking S3 server, Chromium), runs every compiled
// *.test.js file with node's test runner, and always tears the components down.
// Arguments filter test files by substring: `node dist/test/run-tests.js env/ config`.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, type LocalStack } from '../src/devenv/stack.js';

const here = path.dirname(fileURLToPath(import.meta.url));

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function main(): Promise<number> {
  const filters = process.argv.slice(2);
  const files = (await testFiles(here)).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (files.length === 0) {
    console.error(`no test files match ${filters.join(' ')}`);
    return 1;
  }
  const started = Date.now();
  console.log(`[test] starting etcd + kube-apiserver, postgres, s3 ...`);
  let stack: LocalStack | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  const interrupt = (signal: NodeJS.Signals): void => {
    console.error(`[test] ${signal}: stopping`);
    child?.kill(signal);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    stack = await startStack({
      databaseUrl: process.env.DATABASE_URL || undefined,
      log: (line) => console.log(`[test] ${line}`),
    });
    console.log(`[test] environment up in ${((Date.now() - started) / 1000).toFixed(1)} s; running ${files.length} test files`);
    const concurrency = process.env.TEST_CONCURRENCY ?? '2';
    child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...stack.env },
    });
    const code = await new Promise<number>((resolve) => child!.once('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
    return code;
  } finally {
    if (stack) {
      await stack.stop();
      console.log('[test] environment stopped');
    }
    console.log(`[test] total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[test] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
