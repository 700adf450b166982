import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { staticExportCrd } from '../../src/apis/crd/staticexport-crd.js';
import { toStructuralSchema, type JsonSchema } from '../../src/apis/crd/structural-schema.js';
import { defaultValuesConfigMapName, staticExportSpecSchema } from '../../src/apis/staticexport/index.js';

type Version = { schema: { openAPIV3Schema: JsonSchema } };
const openApi = (): JsonSchema => ((staticExportCrd().spec as { versions: Version[] }).versions[0]!).schema.openAPIV3Schema;

function undocumented(node: JsonSchema, path: string): string[] {
  const out: string[] = [];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
    const here = `${path}.${name}`;
    if (!(here === '.metadata') && typeof child.description !== 'string') out.push(here);
    out.push(...undocumented(child, here));
    if (child.items) out.push(...undocumented(child.items as JsonSchema, `${here}[]`));
  }
  return out;
}

describe('StaticExport CRD generation', () => {
  it('documents every field so kubectl explain helps', () => {
    assert.deepEqual(undocumented(openApi(), ''), []);
  });

  it('is structural: typed nodes, no additionalProperties beside properties, no huge integer bounds', () => {
    const text = JSON.stringify(openApi());
    assert.ok(!text.includes('"additionalProperties":false'));
    assert.ok(!text.includes('9007199254740991'));
    assert.ok(!text.includes('$schema'));
  });

  it('marks conditions as a map list keyed by type', () => {
    const status = (openApi().properties as Record<string, JsonSchema>).status!;
    const conditions = (status.properties as Record<string, JsonSchema>).conditions!;
    assert.equal(conditions['x-kubernetes-list-type'], 'map');
    assert.deepEqual(conditions['x-kubernetes-list-map-keys'], ['type']);
  });

  it('refuses zod constructs a structural schema cannot express', () => {
    assert.throws(() => toStructuralSchema(z.object({ a: z.any() })), /needs a type/);
  });

  it('validates specs the same way in TypeScript', () => {
    const ok = staticExportSpecSchema.parse({ domain: 'docs.example.com', origin: 'https://docs.example.com/' });
    assert.equal(ok.format, 'zip');
    const bad = staticExportSpecSchema.safeParse({ domain: 'Docs', origin: 'ftp://x', paths: ['x'] });
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues.map((i) => i.path.join('.')).sort(), ['domain', 'origin', 'paths.0']);
  });

  it('names the default values ConfigMap after the domain', () => {
    assert.equal(defaultValuesConfigMapName('docs.example.com'), 'docport-static-export-docs-example-com');
  });
});
