// Per-suite isolated resources on the components that run-tests.ts started:
// a namespace, a database, a bucket. A suite that cannot get one fails loudly
// with what is missing and how to get it; nothing is skipped.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export function requireEnv(name: string, component: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${component} is not available to this test: ${name} is not set. Run the tests with \`make test\`, ` +
        'which installs (make deps) and starts the real components, or export the variables yourself.',
    );
  }
  return value;
}

// One root-level hook, registered when a test file imports this module, runs every
// cleanup (newest first) after all of the file's tests, even when some failed.
// Calling after() from inside a before() hook would instead run it right away.
const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  const errors: unknown[] = [];
  for (const fn of cleanups.reverse()) await fn().catch((error: unknown) => errors.push(error));
  if (errors.length > 0) throw new AggregateError(errors, 'test resource cleanup failed');
});

/** Registers cleanup that runs after the file's tests even when a test failed. */
export function cleanup(fn: () => Promise<unknown>): void {
  cleanups.push(fn);
}
