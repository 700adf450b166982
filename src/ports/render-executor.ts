import type { RenderRequest } from '../apis/render/contract.js';

export interface RenderOwner {
  namespace: string;
  name: string;
  uid: string;
}

/** What the controller can know about one render (a Job or a local process). */
export type RenderObservation =
  | { state: 'absent' }
  | { state: 'pending' | 'running'; name: string; startTime?: Date }
  | { state: 'succeeded' | 'failed'; name: string; message?: string; startTime?: Date; completionTime?: Date };

/** Runs `docport render` somewhere: a Kubernetes Job, or a child process of the controller. */
export interface RenderExecutor {
  readonly kind: 'kubernetes' | 'local';
  /** The render of `generation`, and the names of renders of other generations still around. */
  observe(owner: RenderOwner, generation: number): Promise<{ current: RenderObservation; others: string[] }>;
  /** Starts the render under a deterministic name; an existing one with that name is kept (idempotent). */
  start(owner: RenderOwner, name: string, request: RenderRequest): Promise<void>;
  /** Stops and removes renders by name (background propagation); missing ones are ignored. */
  remove(owner: RenderOwner, names: readonly string[]): Promise<void>;
  /** Makes sure the namespace can run renders (ServiceAccount and Role); idempotent. */
  prepareNamespace(namespace: string): Promise<void>;
}
