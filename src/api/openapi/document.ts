import { z } from 'zod';
import { errorBodySchema } from '../errors.js';
import type { AnyRoute } from '../route.js';

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input; details name each field at fault.',
  401: 'Missing, malformed, unknown or revoked API key.',
  403: 'The key is of the wrong type for this endpoint, or the organization\'s plan does not include it.',
  404: 'Not found, or it belongs to another organization.',
  409: 'The resource is not in a state that allows this yet.',
  413: 'The request body is larger than the limit.',
  415: 'The request body is not application/json.',
  429: 'The organization\'s hourly rate limit for this family is used up; see Retry-After.',
  500: 'Server error; the message is in the server logs under the reference given.',
  503: 'A dependency is unavailable; retry later.',
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per hour for this endpoint family and organization.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current hour.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current hourly window ends.', schema: { type: 'integer' } },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  // The dialect is the document's (OpenAPI 3.1 is JSON Schema 2020-12), not each schema's.
  delete generated.$schema;
  return generated;
}

function parameters(location: 'path' | 'query', schema: z.ZodObject | undefined): JsonSchema[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = field as z.ZodType;
    return {
      name, in: location, required: location === 'path' || !fieldSchema.safeParse(undefined).success,
      ...(fieldSchema.description ? { description: fieldSchema.description } : {}),
      schema: jsonSchema(fieldSchema, 'input'),
    };
  });
}

function operation(route: AnyRoute): JsonSchema {
  const responses: Record<string, unknown> = {
    [route.response.status]: {
      description: route.response.description,
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.response.name}` } } },
    },
  };
  for (const status of route.errors) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? 'Error.',
      ...(status === 429 ? { headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    security: [{ [`${route.keyType}Key`]: [] }],
    parameters: [...parameters('path', route.params as z.ZodObject | undefined), ...parameters('query', route.query as z.ZodObject | undefined)],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body as z.ZodType, 'input') } } } }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and responses. */
export function openApiDocument(routes: readonly AnyRoute[], info: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { Error: jsonSchema(errorBodySchema, 'output') };
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method] = operation(route);
    schemas[route.response.name] = jsonSchema(route.response.schema as z.ZodType, 'output');
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Docport REST API',
      version: info.version,
      description: 'Export jobs, bundle links, assistant caller statistics and documentation search. See docs/api.md for limits and conventions.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'analytics', description: 'Admin keys; 100 requests per hour per organization by default.' },
      { name: 'static-export', description: 'Admin keys; enterprise plan for creating jobs.' },
      { name: 'search', description: 'Assistant keys; callable from browsers.' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: 'Admin key (dpa_...): analytics and static export. Never accepted by search.' },
        assistantKey: { type: 'http', scheme: 'bearer', description: 'Assistant key (dps_...): search only; safe to embed in web pages.' },
      },
    },
  };
}
