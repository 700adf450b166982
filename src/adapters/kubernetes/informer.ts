import { makeInformer, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../../observability/logger.js';

export interface Informer<T> {
  /** True once the first list completed (the cache is usable). */
  hasSynced(): boolean;
  get(namespace: string, name: string): T | undefined;
  list(namespace?: string): T[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface InformerHandlers<T> {
  onUpsert(obj: T): void;
  onDelete(obj: T): void;
}

/**
 * client-node's ListWatch keeps a cache by list + watch and re-lists on 410 Gone, but
 * stops for good on any other error (API server restart, network). This wrapper
 * restarts it with jittered exponential backoff (0.5 s doubling to 30 s) so the
 * controller recovers by itself, as client-go's reflector does.
 */
export function resilientInformer<T extends KubernetesObject>(
  kubeConfig: KubeConfig,
  path: string,
  list: () => Promise<KubernetesListObject<T>>,
  handlers: InformerHandlers<T>,
  log: Logger,
  labelSelector?: string,
): Informer<T> {
  const informer = makeInformer<T>(kubeConfig, path, list, labelSelector);
  let synced = false;
  let stopped = true;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let errorDuringStart = false;

  const restart = async (): Promise<void> => {
    if (stopped) return;
    errorDuringStart = false;
    await informer.start();
    if (!errorDuringStart) {
      synced = true;
      failures = 0;
    }
  };
  informer.on('add', (obj) => handlers.onUpsert(obj));
  informer.on('update', (obj) => handlers.onUpsert(obj));
  informer.on('delete', (obj) => handlers.onDelete(obj));
  informer.on('error', (error: unknown) => {
    errorDuringStart = true;
    if (stopped) return;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6)) * (0.8 + Math.random() * 0.4);
    failures += 1;
    log.warn('watch failed; restarting', { path, attempt: failures, delayMs: Math.round(delay), error: error instanceof Error ? error.message : String(error) });
    clearTimeout(timer);
    timer = setTimeout(() => void restart(), delay);
    timer.unref();
  });

  return {
    hasSynced: () => synced,
    get: (namespace, name) => informer.get(name, namespace),
    list: (namespace) => [...informer.list(namespace)],
    async start() {
      stopped = false;
      await restart();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await informer.stop();
    },
  };
}
