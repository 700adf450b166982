import { z } from 'zod';

export const PHASES = ['Queued', 'Running', 'Completed', 'Failed'] as const;
export const phaseSchema = z
  .enum(PHASES)
  .describe('Lifecycle phase: Queued (accepted, render not started), Running (render in progress), Completed (bundle ready), Failed (render failed; see failureMessage).');
export type Phase = z.infer<typeof phaseSchema>;

/** kstatus conditions plus Docport's domain conditions. */
export const CONDITION_TYPES = ['Ready', 'Reconciling', 'Stalled', 'Rendered', 'BundleReady', 'ValuesPublished'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

const rfc3339 = z.iso.datetime({ offset: true });

export const conditionSchema = z
  .object({
    type: z
      .string()
      .min(1)
      .max(316)
      .describe(`Condition type. Ready, Reconciling and Stalled follow kstatus; Rendered, BundleReady and ValuesPublished report the export's steps.`),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition: True, False or Unknown.'),
    reason: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
      .describe('One-word CamelCase reason for the last transition.'),
    message: z.string().max(32768).describe('Human-readable details of the last transition.'),
    lastTransitionTime: rfc3339.describe('When the condition last changed status (RFC 3339).'),
    observedGeneration: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('metadata.generation the condition was computed from.'),
  })
  .describe('A standard Kubernetes condition.');
export type Condition = z.infer<typeof conditionSchema>;

export const bundleStatusSchema = z
  .object({
    key: z.string().min(1).describe('Object key of the archive in the export bucket.'),
    format: z.enum(['zip', 'tar.gz']).describe('Archive format.'),
    generation: z
      .number()
      .int()
      .min(1)
      .describe('metadata.generation whose render produced the archive. The last good bundle stays published while a newer generation renders.'),
    completedAt: rfc3339.describe('When the render that produced the archive completed.'),
    sizeBytes: z.number().int().min(0).describe('Archive size in bytes.'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('Hex SHA-256 of the archive, for verification by the self-hosted deployment.'),
    expiresAt: rfc3339
      .optional()
      .describe('Expiry of the last presigned download link handed out or published (the link itself is not stored in status).'),
  })
  .describe('Facts about the packaged archive, present once the bundle exists.');
export type BundleStatus = z.infer<typeof bundleStatusSchema>;

export const staticExportStatusSchema = z
  .object({
    phase: phaseSchema.optional(),
    progress: z.number().int().min(0).max(100).optional().describe('Render progress in percent (0-100).'),
    pageCount: z.number().int().min(0).optional().describe('Number of pages rendered so far.'),
    observedGeneration: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('metadata.generation of the spec this status describes.'),
    conditions: z
      .array(conditionSchema)
      .max(16)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
      .describe('Conditions: Ready, Reconciling, Stalled (kstatus) and Rendered, BundleReady, ValuesPublished.'),
    failureMessage: z.string().max(32768).optional().describe('Why the export failed, when phase is Failed.'),
    renderJobName: z.string().optional().describe('Name of the render Job (or local process) for observedGeneration.'),
    startTime: rfc3339.optional().describe('When the current render started.'),
    completionTime: rfc3339.optional().describe('When the current render completed or failed.'),
    bundle: bundleStatusSchema.optional(),
  })
  .describe('Observed state of the export, written by the controller and the renderer.');
export type StaticExportStatus = z.infer<typeof staticExportStatusSchema>;
