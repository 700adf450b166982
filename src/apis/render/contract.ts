import { z } from 'zod';
import { archiveFormatSchema, domainSchema, pathSchema, versionSchema } from '../staticexport/spec.js';

/**
 * The contract between the controller and the renderer (`docport render`), the same
 * for both executors (a Kubernetes Job or a local child process):
 *
 *   controller --RENDER_REQUEST (JSON env var)--> renderer
 *   renderer   --merge patch status.progress/pageCount (at most ~1/s)--> StaticExport
 *   renderer   --objects under outputPrefix, result.json written last--> object store
 *   controller <--Job/process outcome + result.json-- decides Completed or Failed
 *
 * The renderer never writes phase, conditions or bundle facts: the controller owns them.
 */
export const renderRequestSchema = z.object({
  namespace: z.string().min(1).describe('Namespace of the StaticExport to report progress to.'),
  name: z.string().min(1).describe('Name of the StaticExport.'),
  generation: z.number().int().min(1).describe('metadata.generation being rendered.'),
  domain: domainSchema,
  // Credentials in the origin would be copied into manifest.json and logs: refused at the edge.
  origin: z.url({ protocol: /^https?$/ }).refine((url) => {
    const parsed = new URL(url);
    return parsed.username === '' && parsed.password === '';
  }, 'must not contain credentials (user:password@)'),
  version: versionSchema.optional(),
  paths: z.array(pathSchema).optional(),
  format: archiveFormatSchema,
  outputPrefix: z.string().regex(/^exports\/.+\/$/).describe('Object-store prefix for every output, ending in "/".'),
});
export type RenderRequest = z.infer<typeof renderRequestSchema>;

export const RESULT_FILE = 'result.json';
export const MANIFEST_FILE = 'manifest.json';
export const FILES_DIR = 'files/';
export const archiveFileName = (format: 'zip' | 'tar.gz'): string => `bundle.${format}`;

/** Written last, as `<outputPrefix>result.json`, whatever the outcome. */
export const renderResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('succeeded'),
    generation: z.number().int(),
    archiveKey: z.string(),
    format: archiveFormatSchema,
    sizeBytes: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    pageCount: z.number().int().min(0),
    manifestKey: z.string(),
    completedAt: z.iso.datetime(),
  }),
  z.object({
    outcome: z.literal('failed'),
    generation: z.number().int(),
    error: z.string().max(4096),
    pageCount: z.number().int().min(0),
    completedAt: z.iso.datetime(),
  }),
]);
export type RenderResult = z.infer<typeof renderResultSchema>;

/** Everything an export ever stored lives under this prefix (the finalizer deletes it). */
export const exportPrefix = (namespace: string, name: string): string => `exports/${namespace}/${name}/`;
export const generationPrefix = (namespace: string, name: string, generation: number): string =>
  `${exportPrefix(namespace, name)}g${generation}/`;
