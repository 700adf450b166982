import { z } from 'zod';

/** DNS-style site identifier, e.g. `docs.example.com`. */
export const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be lower-case letters, digits, "-" and "." (like docs.example.com)')
  .describe('Site identifier of the documentation, a DNS-style name such as docs.example.com. Search results and the published Helm values are keyed by it.');

export const versionSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must start with a letter or digit and contain only letters, digits, ".", "_" and "-"')
  .describe('Documentation version being exported (for example v2 or 2024.1). Recorded in the bundle and published as staticExport.version; when omitted the bundle is unversioned and the export name is used.');

export const pathSchema = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^\/[^\s#?]*$/, 'must be an absolute URL path starting with "/" without query or fragment')
  .describe('URL path prefix on the origin, starting with "/".');

export const archiveFormatSchema = z
  .enum(['zip', 'tar.gz'])
  .describe('Archive format of the bundle: zip (default) or tar.gz.');

/** Kubernetes object name (RFC 1123 subdomain). */
const objectNameSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a valid Kubernetes object name (RFC 1123 subdomain)');

export const helmReleaseRefSchema = z
  .object({
    name: objectNameSchema.describe('Name of the Flux HelmRelease (helm.toolkit.fluxcd.io/v2) whose spec.values.staticExport is patched.'),
    namespace: objectNameSchema
      .optional()
      .describe('Namespace of the HelmRelease; defaults to the StaticExport namespace.'),
  })
  .describe('A Flux HelmRelease to patch directly, in addition to the values ConfigMap.');

export const publishSchema = z
  .object({
    configMapName: objectNameSchema
      .optional()
      .describe('ConfigMap (in this namespace) that receives the Helm values of the self-hosted docs deployment: keys enabled, bundleUrl, version and values.yaml. Defaults to docport-static-export-<domain with dots replaced by dashes>, so every export of a domain updates the same values.'),
    helmRelease: helmReleaseRefSchema.optional(),
  })
  .describe('Where the Helm values of the self-hosted docs deployment are published once the bundle is ready.');

export const staticExportSpecSchema = z
  .object({
    domain: domainSchema,
    origin: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .max(2048)
      .describe('Base URL of the live documentation site to render, for example https://docs.example.com/ or http://docs.internal:8080/guide/. Only pages under this URL are exported.'),
    version: versionSchema.optional(),
    paths: z
      .array(pathSchema)
      .max(100)
      .optional()
      .describe('Path prefixes to export (each a start page and a scope). When omitted the whole origin is exported.'),
    format: archiveFormatSchema.default('zip'),
    publish: publishSchema.optional(),
  })
  .describe('Desired export: which site to render and where to publish the result.');

export type StaticExportSpec = z.output<typeof staticExportSpecSchema>;
export type StaticExportSpecInput = z.input<typeof staticExportSpecSchema>;

/** The values ConfigMap name used when spec.publish.configMapName is not set. */
export function defaultValuesConfigMapName(domain: string): string {
  return `docport-static-export-${domain.replaceAll('.', '-')}`.slice(0, 253).replace(/-+$/, '');
}
