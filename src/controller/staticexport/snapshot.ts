import type { RenderResult } from '../../apis/render/contract.js';
import type { StaticExport } from '../../apis/staticexport/index.js';
import type { RenderObservation } from '../../ports/render-executor.js';

/** The values ConfigMap as the controller reads it (data and publisher annotations). */
export interface PublishedValues {
  name: string;
  data: Record<string, string>;
  annotations: Record<string, string>;
}

/** Everything `decide` needs, read by `gather` in one pass. Plain data, no clients. */
export interface Snapshot {
  resource: StaticExport;
  render: RenderObservation;
  /** Renders of other generations still present (to be removed). */
  staleRenders: string[];
  /** result.json of the current generation, when the render finished. */
  result?: RenderResult | { invalid: string };
  /** Size of the archive in the object store (result's key, or status.bundle.key), when it exists. */
  archive?: { key: string; sizeBytes: number };
  /** The values ConfigMap the export publishes to, when it exists. */
  values?: PublishedValues;
}

export interface DecideSettings {
  presignTtlSeconds: number;
  /** Re-presign when less than this fraction of the link lifetime is left. */
  refreshFraction: number;
  /** Delay before checking again when waiting on something outside the controller. */
  waitRetryMs: number;
}
