/** Where the self-hosted deployment's Helm values are published (a ConfigMap, optionally a Flux HelmRelease). */
export interface ValuesConfigMap {
  name: string;
  data: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ValuesPublisher {
  read(namespace: string, configMapName: string): Promise<ValuesConfigMap | undefined>;
  /** Creates or updates the ConfigMap to exactly this content (fields of earlier publications are dropped). */
  writeConfigMap(namespace: string, configMapName: string, content: { data: Record<string, string>; labels: Record<string, string>; annotations: Record<string, string> }): Promise<void>;
  /** Merges the staticExport block into a HelmRelease's spec.values; NotFoundError when it does not exist. */
  patchHelmRelease(namespace: string, name: string, staticExport: Record<string, unknown>): Promise<void>;
}

export interface EventRecorder {
  record(object: { namespace: string; name: string; uid: string; kind: string; apiVersion: string }, event: { type: 'Normal' | 'Warning'; reason: string; message: string }): Promise<void>;
}
