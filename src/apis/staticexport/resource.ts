import { z } from 'zod';
import { API_VERSION, KIND } from './group.js';
import { staticExportSpecSchema } from './spec.js';
import { staticExportStatusSchema } from './status.js';

/** The part of ObjectMeta Docport reads; the API server owns the rest. */
export const objectMetaSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  generation: z.number().int().optional(),
  resourceVersion: z.string().optional(),
  creationTimestamp: z.union([z.string(), z.date()]).optional(),
  deletionTimestamp: z.union([z.string(), z.date()]).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  finalizers: z.array(z.string()).optional(),
});

export const staticExportSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal(KIND),
  metadata: objectMetaSchema,
  spec: staticExportSpecSchema,
  status: staticExportStatusSchema.optional(),
});
export type StaticExport = z.infer<typeof staticExportSchema>;
