import type { StaticExport, StaticExportSpecInput, StaticExportStatus } from '../apis/staticexport/index.js';

/** StaticExport resources as the REST API and the renderer need them (the controller uses informers). */
export interface StaticExports {
  /** Creates the resource; ConflictError when the name is taken. */
  create(input: { namespace: string; name: string; labels: Record<string, string>; annotations?: Record<string, string>; spec: StaticExportSpecInput }): Promise<StaticExport>;
  get(namespace: string, name: string): Promise<StaticExport | undefined>;
  list(namespace: string, labelSelector?: string): Promise<StaticExport[]>;
  /** Merge-patches the status subresource. With resourceVersion, fails with ConflictError when the object changed. */
  patchStatus(namespace: string, name: string, status: StaticExportStatus, resourceVersion?: string): Promise<StaticExport>;
  delete(namespace: string, name: string): Promise<void>;
}
