import type { StaticExport } from '../../apis/staticexport/index.js';
import { staticExportSpecSchema, type StaticExportSpec } from '../../apis/staticexport/index.js';

/**
 * Checks beyond the CRD's OpenAPI schema (which an older CRD or a direct etcd write
 * may not have enforced). A problem here stalls the export: retrying cannot help.
 */
export function specProblems(resource: StaticExport): { spec?: StaticExportSpec; problems: string[] } {
  const parsed = staticExportSpecSchema.safeParse(resource.spec);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => `spec.${i.path.join('.')}: ${i.message}`) };
  }
  const spec = parsed.data;
  const problems: string[] = [];
  const origin = new URL(spec.origin);
  if (origin.username || origin.password) problems.push('spec.origin: must not contain credentials');
  if (origin.hash) problems.push('spec.origin: must not contain a fragment');
  const originPath = origin.pathname.endsWith('/') ? origin.pathname : origin.pathname.replace(/[^/]*$/, '');
  for (const path of spec.paths ?? []) {
    if (!path.startsWith(originPath)) problems.push(`spec.paths: ${path} is outside the origin path ${originPath}`);
  }
  const target = spec.publish?.helmRelease;
  if (target?.namespace && target.namespace !== resource.metadata.namespace) {
    // The controller's rights must not let one namespace's users change another's releases.
    problems.push(`spec.publish.helmRelease.namespace: must be the StaticExport's own namespace (${resource.metadata.namespace ?? ''})`);
  }
  return { spec, problems };
}
