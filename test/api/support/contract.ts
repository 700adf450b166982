// Checks real responses against the served /openapi.json (JSON Schema 2020-12, as OpenAPI 3.1 uses).
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Reply } from './api-harness.js';

type Json = Record<string, unknown>;
const BASE = 'https://docport.test/openapi.json';
// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Contract {
  document: Json;
  /** Asserts the status is documented for the operation and the body matches its schema. */
  check(reply: Reply, method: string, template: string): void;
}

export async function loadContract(apiUrl: string): Promise<Contract> {
  const document = (await (await fetch(`${apiUrl}/openapi.json`)).json()) as Json;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('components');
  ajv.addSchema({ $id: BASE, components: document.components }, BASE);
  return {
    document,
    check(reply, method, template) {
      const operation = (document.paths as Record<string, Record<string, Json>>)[template]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${template} is not in the OpenAPI document`);
      const response = (operation.responses as Record<string, Json>)[String(reply.status)];
      assert.ok(response, `${method} ${template} answered ${reply.status}, which the OpenAPI document does not list`);
      const schema = (response.content as Record<string, { schema: Json }>)['application/json']!.schema;
      const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`)) as Json;
      const validate = ajv.compile(resolved);
      assert.ok(validate(reply.json), `${method} ${template} ${reply.status} body breaks the contract: ${ajv.errorsText(validate.errors)}\n${reply.text}`);
    },
  };
}
