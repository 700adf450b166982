import { z } from 'zod';

/**
 * Turns a zod schema into a Kubernetes *structural* OpenAPI v3 schema
 * (apiextensions.k8s.io/v1): every node typed, no `additionalProperties: false`
 * beside `properties`, no JSON-Schema-only keywords. Validation stays in the
 * OpenAPI schema because CEL rules are not available on every supported server.
 */
export type JsonSchema = { [key: string]: unknown };

const SAFE_INT = 9007199254740991;
const DROPPED_KEYS = new Set(['$schema', 'id', '$id', 'definitions', '$defs']);

export function toStructuralSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'throw' }) as JsonSchema;
  return clean(json, '$');
}

function clean(node: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key)) continue;
    if (key === '$ref' || key === 'allOf' || key === 'oneOf' || key === 'not') {
      throw new Error(`${path}: "${key}" cannot be expressed as a structural schema; simplify the zod schema`);
    }
    if (key === 'additionalProperties') {
      if (value === false) continue; // unknown fields are pruned by the API server instead
      if (value === true) { out['x-kubernetes-preserve-unknown-fields'] = true; continue; }
      out[key] = clean(value as JsonSchema, `${path}.*`);
      continue;
    }
    if (key === 'properties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, clean(v, `${path}.${k}`)]),
      );
      continue;
    }
    if (key === 'items') { out[key] = clean(value as JsonSchema, `${path}[]`); continue; }
    if (key === 'anyOf') { out[key] = (value as JsonSchema[]).map((v, i) => clean(v, `${path}|${i}`)); continue; }
    if ((key === 'minimum' && value === -SAFE_INT) || (key === 'maximum' && value === SAFE_INT)) continue;
    out[key] = value;
  }
  // zod's ISO date-time regex is redundant with format: date-time and too heavy for RE2.
  if (out.format === 'date-time') delete out.pattern;
  if (out.type === undefined && out.anyOf === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) {
    throw new Error(`${path}: every node of a structural schema needs a type`);
  }
  return out;
}
