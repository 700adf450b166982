import { createHash } from 'node:crypto';

export const FINALIZER = 'docport.dev/cleanup';
export const CONTROLLER_NAME = 'staticexport';
export const MANAGED_BY = 'docport-controller';

export const LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
  component: 'app.kubernetes.io/component',
  exportName: 'docport.dev/staticexport',
  exportUid: 'docport.dev/staticexport-uid',
  generation: 'docport.dev/generation',
  fluxWatch: 'reconcile.fluxcd.io/watch',
} as const;

export const ANNOTATIONS = {
  publishedBy: 'docport.dev/published-by',
  publishedUid: 'docport.dev/published-uid',
  publishedGeneration: 'docport.dev/published-generation',
  completedAt: 'docport.dev/completed-at',
  expiresAt: 'docport.dev/expires-at',
} as const;

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/**
 * Deterministic render name for an export's generation: the same inputs always give
 * the same name, so a restarted controller finds the render instead of duplicating it.
 * At most 63 characters (Job names end up in Pod labels).
 */
export function renderName(exportName: string, uid: string, generation: number): string {
  const suffix = `-g${generation}-${shortHash(`${uid}/${generation}`)}`;
  const base = exportName.slice(0, 63 - suffix.length).replace(/[-.]+$/, '');
  return `${base}${suffix}`;
}

/** Label values are at most 63 characters; long names are shortened with a hash. */
export function labelValue(value: string): string {
  if (value.length <= 63) return value;
  return `${value.slice(0, 54).replace(/[-._]+$/, '')}-${shortHash(value)}`;
}
