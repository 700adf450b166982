import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * A long-running component (etcd, kube-apiserver, postgres, the S3 server) started as
 * a child of this process, with its output in a log file. Every started service is
 * remembered so that an abrupt exit of the parent still kills it: the environment
 * must never leave processes behind.
 */
export interface ServiceProcess {
  readonly name: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  exited(): boolean;
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export class MissingComponentError extends Error {
  constructor(component: string, remedy: string) {
    super(`${component} is not available: ${remedy}`);
    this.name = 'MissingComponentError';
  }
}

export function startService(
  name: string,
  command: string,
  args: readonly string[],
  logFile: string,
  options: SpawnOptions = {},
): ServiceProcess {
  installExitHook();
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  running.add(child);
  let done = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      done = true;
      running.delete(child);
      resolve();
    });
    child.once('error', (error) => {
      log.write(`\n[devenv] failed to start ${command}: ${error.message}\n`);
      done = true;
      running.delete(child);
      resolve();
    });
  });
  return {
    name,
    logFile,
    child,
    exited: () => done,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (!done) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exit;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}

/**
 * Polls `probe` until it resolves true. When the service exits or times out, it is
 * stopped and the error carries its log tail.
 */
export async function waitUntilReady(
  service: ServiceProcess,
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.exited()) break;
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const why = service.exited() ? 'exited during startup' : `not ready after ${timeoutMs} ms`;
  await service.stop('SIGKILL', 0);
  throw new Error(`${service.name} ${why}; its log (${service.logFile}) ends with:\n${await logTail(service.logFile)}`);
}

export async function logTail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).map((l) => `  | ${l}`).join('\n');
}
