import type { StaticExport, StaticExportSpecInput, StaticExportStatus } from '../apis/staticexport/index.js';

/** StaticExport resources as the REST API and the renderer need them (the controller uses informers). */
export interface StaticExports {
  /** Creates the resource; ConflictError when the name is taken. */
  create(input: { namespace: string; name: string; labels: Record<string, string>; annotations?: Record<string, string>; spec: StaticExportSpecInput }): Promise<StaticExport>;
  get(namespace: string, name: string): Promise<StaticExport | undefined>;
  list(namespace: string, labelSelector?: string): Promise<StaticExport[]>;
  /** Merge-patches the status subresource. With resourceVersion, fails with ConflictError when the object changed. */
  patchStatus(namespace: string, name: string, status: StaticExportStatus, resourceVersion?: string): Promise<StaticExport>;
  /** Replaces the whole status (fields left out are removed); ConflictError when resource's resourceVersion is stale. */
  replaceStatus(resource: StaticExport, status: StaticExportStatus): Promise<StaticExport>;
  delete(namespace: string, name: string): Promise<void>;
  /** Adds a finalizer if missing (conflict-checked, never replacing others'); returns the new resourceVersion. */
  addFinalizer(resource: StaticExport, finalizer: string): Promise<string | undefined>;
  /** Removes one finalizer, keeping everyone else's; a resource already gone is fine. */
  removeFinalizer(resource: StaticExport, finalizer: string): Promise<void>;
}
