import { z } from 'zod';
import { SCOPES } from '../auth/scopes';
import type { Operation } from '../http/operation';
import { ALL_OPERATIONS } from './operations';
import { SESSION_OPERATIONS } from './session-operations';
import type { SessionOperation } from '../http/session-operation';

type JsonSchema = Record<string, unknown>;

const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  code: z.string().meta({ description: 'Stable UPPER_SNAKE error code.' }),
  requestId: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid input (VALIDATION_FAILED, IDEMPOTENCY_KEY_REQUIRED)',
  '401': 'Missing, unknown or revoked API key (UNAUTHENTICATED)',
  '403': 'WRONG_TOKEN_TYPE (a sign-in token) or INSUFFICIENT_SCOPE',
  '404': 'Not found, or owned by another merchant (NOT_FOUND)',
};

/** What every operation that reads a body can answer before it parses it (docs/api.md, "Limits"). */
const BODY_ERRORS: Record<string, string> = {
  '413': 'The body is larger than the limit (PAYLOAD_TOO_LARGE)',
  '415': 'A body that is not sent as application/json (UNSUPPORTED_MEDIA_TYPE)',
};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(operation: Pick<Operation, 'params' | 'query' | 'idempotency'>) {
  const result: JsonSchema[] = [];
  for (const [location, schema] of [
    ['path', operation.params],
    ['query', operation.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      result.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        schema: property,
        ...(property.description ? { description: property.description } : {}),
      });
    }
  }
  if (operation.idempotency) {
    result.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: operation.idempotency === 'required',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: 'Repeats within 24 h replay the first answer (Idempotent-Replayed: true).',
    });
  }
  return result;
}

function describe(operation: Operation): string {
  const notes = [
    operation.description,
    `Scope: \`${operation.scope}\`.`,
    operation.idempotency === 'required' ? 'Requires `Idempotency-Key`.' : undefined,
    operation.financial ? 'Moves money.' : undefined,
  ];
  return notes.filter(Boolean).join(' ');
}

function toOpenApiOperation(operation: Operation) {
  const errorCodes = { ...ERROR_RESPONSES, ...(operation.method === 'GET' ? {} : BODY_ERRORS) };
  if (operation.idempotency) {
    errorCodes['409'] = 'Conflict, or a request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE)';
    errorCodes['422'] = 'Idempotency-Key reused with a different request (IDEMPOTENCY_KEY_REUSED)';
  }
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: describe(operation),
    tags: [operation.tag],
    security: [{ apiKey: [operation.scope] }],
    parameters: parameters(operation),
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(operation.body, 'input') } } } }
      : {}),
    responses: {
      [String(operation.successStatus ?? 200)]: {
        description: 'Success',
        content: { 'application/json': { schema: toSchema(operation.response, 'output') } },
      },
      ...Object.fromEntries(
        Object.entries(errorCodes).map(([status, description]) => [
          status,
          { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        ]),
      ),
    },
  };
}

const SESSION_ERRORS: Record<string, string> = {
  '400': 'Invalid input (VALIDATION_FAILED)',
  '401': 'UNAUTHENTICATED, TOKEN_EXPIRED (refresh it) or INVALID_REFRESH_TOKEN',
  '403': 'WRONG_TOKEN_TYPE: an API key, or a token of another audience',
  '429': 'RATE_LIMITED, with Retry-After',
};

/** A sign-in-API operation (JWT family): documented with the bearer scheme of its audiences. */
function toOpenApiSessionOperation(operation: SessionOperation) {
  const who = operation.access === 'public' ? 'No access token.' : `Access token of audience: ${operation.access.join(', ')}.`;
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: [operation.description, who, 'See docs/auth.md.'].filter(Boolean).join(' '),
    tags: [operation.tag],
    security: operation.access === 'public' ? [] : [{ signInToken: [...operation.access] }],
    parameters: parameters(operation),
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(operation.body, 'input') } } } }
      : {}),
    responses: {
      [String(operation.successStatus ?? 200)]: {
        description: 'Success',
        ...(operation.response && operation.successStatus !== 204
          ? { content: { 'application/json': { schema: toSchema(operation.response, 'output') } } }
          : {}),
      },
      ...Object.fromEntries(
        Object.entries({ ...SESSION_ERRORS, ...(operation.method === 'GET' ? {} : BODY_ERRORS) }).map(([status, description]) => [
          status,
          { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        ]),
      ),
    },
  };
}

/** The OpenAPI 3.1 document of the developer API, generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of ALL_OPERATIONS) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = toOpenApiOperation(operation);
  }
  for (const operation of SESSION_OPERATIONS) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = toOpenApiSessionOperation(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paybase developer API',
      version: '1.0.0',
      description:
        'Payments, subscriptions and webhooks for sellers. Authenticate with an API key: `Authorization: Bearer sk_...`. Amounts are integers in the currency minor unit.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `API key. Scopes: ${SCOPES.join(', ')}.` },
        signInToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Sign-in access token (15 minutes) of an audience: admin, merchant or member.' },
      },
      schemas: { Problem: toSchema(ProblemSchema, 'output') },
    },
    paths,
  };
}
