import { execFile } from 'node:child_process';
import { chown, mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';
import { MissingComponentError, startService, waitUntilReady, type ServiceProcess } from './service-process.js';

const run = promisify(execFile);

export interface LocalPostgres {
  /** Superuser URL of the private cluster (trust auth on 127.0.0.1 only). */
  readonly url: string;
  stop(): Promise<void>;
}

async function postgresBinDir(): Promise<string> {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? (await readdir(base)).filter((v) => /^\d+$/.test(v)) : [];
  const latest = versions.sort((a, b) => Number(b) - Number(a)).find((v) => existsSync(path.join(base, v, 'bin', 'postgres')));
  if (!latest) throw new MissingComponentError('PostgreSQL', 'run `make deps` (installs Debian\'s postgresql) or set DATABASE_URL');
  return path.join(base, latest, 'bin');
}

/** Server processes refuse to run as root: as root, run them as the postgres system user. */
async function runAs(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid };
}

/** Starts a throwaway private PostgreSQL cluster in `dir` on a free loopback port. */
export async function startPostgres(dir: string): Promise<LocalPostgres> {
  const bin = await postgresBinDir();
  const user = await runAs();
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  if (user) {
    await chown(dir, user.uid, user.gid);
    await chown(dataDir, user.uid, user.gid);
  }
  const spawnUser = user ? { uid: user.uid, gid: user.gid } : {};
  await new Promise<void>((resolve, reject) =>
    execFile(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], spawnUser,
      (error, _stdout, stderr) => (error ? reject(new Error(`initdb failed: ${stderr}`)) : resolve())),
  );
  const port = await freePort();
  const service: ServiceProcess = startService('postgres', path.join(bin, 'postgres'), [
    '-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300',
  ], path.join(dir, 'postgres.log'), spawnUser);
  await waitUntilReady(service, async () => {
    await run(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres']);
    return true;
  }, 30_000);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // SIGINT is PostgreSQL's "fast" shutdown: no waiting for clients.
    stop: () => service.stop('SIGINT'),
  };
}
