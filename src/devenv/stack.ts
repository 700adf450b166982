import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumPath } from './chromium.js';
import { startControlPlane, type LocalControlPlane } from './kube-apiserver.js';
import { startPostgres, type LocalPostgres } from './postgres.js';
import { startS3, type LocalS3 } from './s3.js';

/** Connection facts of a running local stack, as environment variables for child processes. */
export interface StackEnvironment {
  DOCPORT_KUBECONFIG: string;
  DOCPORT_DATABASE_URL: string;
  DOCPORT_S3_ENDPOINT: string;
  DOCPORT_S3_REGION: string;
  DOCPORT_S3_ACCESS_KEY_ID: string;
  DOCPORT_S3_SECRET_ACCESS_KEY: string;
  DOCPORT_CHROMIUM_PATH: string;
  DOCPORT_STACK_DIR: string;
}

export interface LocalStack {
  readonly env: StackEnvironment;
  readonly controlPlane?: LocalControlPlane;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Use this server instead of a private cluster (DATABASE_URL). */
  databaseUrl?: string;
  /** Use this cluster instead of a private etcd + kube-apiserver (KUBECONFIG). */
  kubeconfig?: string;
  /** Use this S3-compatible store instead of the local one. */
  s3?: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  log?: (line: string) => void;
}

/**
 * Starts etcd + kube-apiserver, PostgreSQL and the S3 server in parallel on loopback,
 * under one temporary directory that stop() removes. A component that fails to
 * start stops the others and rejects with what is missing and how to get it.
 */
export async function startStack(options: StackOptions = {}): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(path.join(tmpdir(), 'docport-stack-'));
  // Traversable, not listable: postgres runs as its own user when we are root.
  await chmod(dir, 0o711);
  const started: Array<{ stop(): Promise<void> }> = [];
  const track = <T extends { stop(): Promise<void> }>(p: Promise<T>, name: string): Promise<T> =>
    p.then((component) => {
      started.push(component);
      log(`${name} ready`);
      return component;
    });
  const stopAll = async (): Promise<void> => {
    await Promise.allSettled(started.map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    const chromium = chromiumPath();
    // allSettled, not all: a failure must not leave the other components starting unobserved.
    const given = { stop: () => Promise.resolve() };
    const results = await Promise.allSettled([
      options.kubeconfig
        ? Promise.resolve({ ...given, kubeconfig: options.kubeconfig } as unknown as LocalControlPlane)
        : track(startControlPlane(path.join(dir, 'kube')), 'etcd + kube-apiserver'),
      options.databaseUrl
        ? Promise.resolve({ ...given, url: options.databaseUrl } satisfies LocalPostgres)
        : track(startPostgres(path.join(dir, 'postgres')), 'postgres'),
      options.s3
        ? Promise.resolve({ ...given, ...options.s3 } satisfies LocalS3)
        : track(startS3(path.join(dir, 's3')), 's3'),
    ]);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    if (failures.length > 0) throw new Error(failures.map((f) => f.message).join('\n'));
    const [controlPlane, postgres, s3] = results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [
      LocalControlPlane, LocalPostgres, LocalS3,
    ];
    return {
      ...(options.kubeconfig ? {} : { controlPlane }),
      env: {
        DOCPORT_KUBECONFIG: controlPlane.kubeconfig,
        DOCPORT_DATABASE_URL: postgres.url,
        DOCPORT_S3_ENDPOINT: s3.endpoint,
        DOCPORT_S3_REGION: s3.region,
        DOCPORT_S3_ACCESS_KEY_ID: s3.accessKeyId,
        DOCPORT_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        DOCPORT_CHROMIUM_PATH: chromium,
        DOCPORT_STACK_DIR: dir,
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
