import { z } from 'zod';
import {
  CATEGORIES, GROUP, KIND, LIST_KIND, PLURAL, SHORT_NAMES, SINGULAR, VERSION,
  staticExportSpecSchema, staticExportStatusSchema,
} from '../staticexport/index.js';
import { toStructuralSchema } from './structural-schema.js';

/** The CustomResourceDefinition of StaticExport, derived from the zod schemas. */
export function staticExportCrd(): Record<string, unknown> {
  const root = z
    .object({
      apiVersion: z.string().optional().describe('APIVersion defines the versioned schema of this representation of an object.'),
      kind: z.string().optional().describe('Kind is a string value representing the REST resource this object represents.'),
      metadata: z.object({}).optional(),
      spec: staticExportSpecSchema,
      status: staticExportStatusSchema.optional(),
    })
    .describe('StaticExport renders a documentation site into a self-contained static bundle in object storage and publishes its Helm values.');
  const schema = toStructuralSchema(root);
  // The API server owns metadata's schema and rejects anything beyond its type here.
  (schema.properties as Record<string, unknown>).metadata = { type: 'object' };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP,
      names: { kind: KIND, listKind: LIST_KIND, plural: PLURAL, singular: SINGULAR, shortNames: SHORT_NAMES, categories: CATEGORIES },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Domain', type: 'string', jsonPath: '.spec.domain' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            { name: 'Progress', type: 'integer', jsonPath: '.status.progress' },
            { name: 'Pages', type: 'integer', jsonPath: '.status.pageCount' },
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: schema },
        },
      ],
    },
  };
}
