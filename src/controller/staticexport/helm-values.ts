import { stringify } from 'yaml';
import { LABELS, ANNOTATIONS, MANAGED_BY } from './names.js';

/** The `staticExport` block of the self-hosted docs deployment's Helm values. */
export interface StaticExportValues {
  enabled: boolean;
  bundleUrl: string;
  version: string;
  sha256: string;
}

export interface PublishedBy {
  namespace: string;
  name: string;
  uid: string;
  generation: number;
  completedAt: string;
  expiresAt: string;
}

/**
 * ConfigMap data for Flux `valuesFrom`: flat keys for `targetPath` use
 * (staticExport.enabled, .bundleUrl, .version, .sha256) and `values.yaml` with the whole block.
 */
export function valuesConfigMapData(values: StaticExportValues): Record<string, string> {
  return {
    enabled: String(values.enabled),
    bundleUrl: values.bundleUrl,
    version: values.version,
    sha256: values.sha256,
    'values.yaml': stringify({ staticExport: values }, { lineWidth: 0 }),
  };
}

export function valuesConfigMapMetadata(publishedBy: PublishedBy | undefined): { labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    // Flux's helm-controller re-reconciles a HelmRelease at once when a watched valuesFrom source changes.
    labels: { [LABELS.fluxWatch]: 'Enabled', [LABELS.managedBy]: MANAGED_BY },
    annotations: publishedBy
      ? {
          [ANNOTATIONS.publishedBy]: `${publishedBy.namespace}/${publishedBy.name}`,
          [ANNOTATIONS.publishedUid]: publishedBy.uid,
          [ANNOTATIONS.publishedGeneration]: String(publishedBy.generation),
          [ANNOTATIONS.completedAt]: publishedBy.completedAt,
          [ANNOTATIONS.expiresAt]: publishedBy.expiresAt,
        }
      : {},
  };
}

/** What a withdrawn export leaves: the deployment turns the static bundle off. */
export const WITHDRAWN_VALUES: StaticExportValues = { enabled: false, bundleUrl: '', version: '', sha256: '' };
