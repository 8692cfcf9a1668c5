import { createDocument, createSchema, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { z } from 'zod';
import { SCOPES } from '../../http/scopes';
import type { Operation } from '../../http/operation';
import type { SessionOperation } from '../../http/session-operation';
import { EVENT_TYPES } from '../../events/types';
import { EVENT_BODIES } from '../event-catalog';
import { ALL_OPERATIONS } from './operations';
import { SESSION_OPERATIONS } from './session-operations';
import { Problem, nameSchemas } from './components';
import { TAGS } from './tags';
import { problemExtrasSchemas } from './problem-extras';
import {
  REQUEST_HEADER_PARAMETERS,
  RESPONSE_HEADERS,
  SHARED_RESPONSES,
  developerErrorResponses,
  rateLimitHeaderRefs,
  sessionErrorResponses,
  versionHeaderRef,
} from './responses';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });

function inputs(operation: Operation | SessionOperation): Partial<ZodOpenApiOperationObject> {
  return {
    requestParams: {
      ...(operation.params ? { path: operation.params as z.ZodObject } : {}),
      ...(operation.query ? { query: operation.query as z.ZodObject } : {}),
    },
    ...(operation.body ? { requestBody: { required: true, ...json(operation.body) } } : {}),
  };
}

function success(operation: Operation | SessionOperation) {
  const status = operation.successStatus ?? 200;
  if (status === 204) return { [status]: { description: 'Success, no body.', headers: versionHeaderRef() } };
  // `defineSessionOperation` makes every answer with a body declare its schema.
  if (!operation.response) throw new Error(`${operation.id} answers ${status} with a body but declares no response schema.`);
  return { [status]: { description: 'Success', headers: versionHeaderRef(), ...json(operation.response) } };
}

/** A developer-API success also carries the API key's quota headers. */
function developerSuccess(operation: Operation) {
  return Object.fromEntries(
    Object.entries(success(operation)).map(([status, answer]) => [status, { ...answer, headers: { ...answer.headers, ...rateLimitHeaderRefs() } }]),
  );
}

function developerOperation(operation: Operation): ZodOpenApiOperationObject {
  const notes = [
    operation.description,
    `Scope: \`${operation.scope}\`.`,
    operation.idempotency === 'required' ? 'Requires `Idempotency-Key`.' : undefined,
    operation.financial ? 'Moves money.' : undefined,
  ];
  const idempotency = operation.idempotency === 'required' ? 'IdempotencyKey' : operation.idempotency ? 'OptionalIdempotencyKey' : undefined;
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: notes.filter(Boolean).join(' '),
    tags: [operation.tag],
    // The scope rides in an extension: OpenAPI lists scopes in a requirement for OAuth2 only (linters refuse others).
    security: [{ apiKey: [] }],
    'x-scope': operation.scope,
    ...inputs(operation),
    parameters: [{ $ref: '#/components/parameters/RequestedApiVersion' }, ...(idempotency ? [{ $ref: `#/components/parameters/${idempotency}` }] : [])],
    responses: { ...developerSuccess(operation), ...developerErrorResponses(operation) },
  };
}

/** A sign-in-API operation (JWT family): documented with the bearer scheme of its audiences. */
function sessionOperation(operation: SessionOperation): ZodOpenApiOperationObject {
  const who = operation.access === 'public' ? 'No access token.' : `Access token of audience: ${operation.access.join(', ')}.`;
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: [operation.description, who, 'See docs/auth.md.'].filter(Boolean).join(' '),
    tags: [operation.tag],
    security: operation.access === 'public' ? [] : [{ signInToken: [] }],
    ...(operation.access === 'public' ? {} : { 'x-audiences': [...operation.access] }),
    ...inputs(operation),
    responses: { ...success(operation), ...sessionErrorResponses(operation) },
  };
}

const HeaderText = { type: 'string' as const };
const SIGNATURE_HEADERS = {
  'X-Service-Signature': {
    required: true,
    schema: HeaderText,
    description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`; one `v1` per live signing secret.',
  },
  'X-Service-Event-Id': { required: true, schema: HeaderText, description: 'Event id (evt_), the deduplication key.' },
  'X-Service-Delivery-Id': { required: true, schema: HeaderText, description: 'Delivery id (wda_).' },
  'X-Service-Event-Type': { required: true, schema: HeaderText, description: 'Event type name.' },
  'Paybase-Version': { required: true, schema: HeaderText, description: 'The API version the body is rendered in (its `apiVersion`).' },
};

/** One entry per event type: what a receiver gets (docs/webhooks.md). */
function webhooks(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: `${type} delivery`,
          description:
            'Signed, at-least-once delivery to each endpoint subscribed to this type. Answer 2xx within 10 s; anything else is retried with backoff.',
          tags: ['Webhook events'],
          // The receiver authenticates the sender by the signature header, not by a scheme.
          security: [],
          parameters: Object.keys(SIGNATURE_HEADERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventBodyName(type)}` } } } },
          responses: { '2XX': { description: 'Received; the delivery is done.' } },
        },
      },
    ]),
  );
}

/** `payment.succeeded` → `PaymentSucceededEventBody`. */
const eventBodyName = (type: string) => `${type.replace(/(^|[._])(\w)/g, (_match, _separator, letter: string) => letter.toUpperCase())}EventBody`;

/**
 * Event bodies are rendered as output (what the service writes, like the API's answers), not as
 * the request bodies zod-openapi would take them for, so they share the responses' components.
 */
function eventBodySchemas(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const { schema, components } = createSchema(EVENT_BODIES[type], { io: 'output' });
    Object.assign(schemas, components, { [eventBodyName(type)]: schema });
  }
  return schemas;
}

function paths(): ZodOpenApiPathsObject {
  const result: ZodOpenApiPathsObject = {};
  for (const operation of ALL_OPERATIONS) {
    result[operation.path] = { ...result[operation.path], [operation.method.toLowerCase()]: developerOperation(operation) };
  }
  for (const operation of SESSION_OPERATIONS) {
    result[operation.path] = { ...result[operation.path], [operation.method.toLowerCase()]: sessionOperation(operation) };
  }
  return result;
}

/**
 * The OpenAPI 3.1 document of the developer and sign-in APIs, generated by zod-openapi from the
 * same operation definitions and zod schemas that validate requests; named schemas become
 * components referred to with `$ref`.
 */
export function buildOpenApiDocument(serverUrl: string) {
  nameSchemas();
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Paybase API',
      version: '1.0.0',
      description:
        'Payments, subscriptions and webhooks for sellers. Authenticate with an API key: `Authorization: Bearer sk_...`. Amounts are integers in the currency minor unit. Errors are RFC 9457 problem details.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'API reference', url: `${serverUrl}/docs/api` },
    },
    tags: [...TAGS],
    servers: [{ url: serverUrl }],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `Developer API: an API key. Scopes: ${SCOPES.join(', ')}.` },
        signInToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Sign-in APIs: an access token (15 minutes) of an audience: admin, merchant or member.',
        },
      },
      schemas: { Problem },
      parameters: {
        ...REQUEST_HEADER_PARAMETERS,
        ...Object.fromEntries(Object.entries(SIGNATURE_HEADERS).map(([name, header]) => [name, { name, in: 'header' as const, ...header }])),
      },
      responses: SHARED_RESPONSES,
      headers: RESPONSE_HEADERS,
    },
  });
  const components = document.components!;
  const problemExtras = problemExtrasSchemas();
  components.schemas = {
    ...components.schemas,
    ...(eventBodySchemas() as typeof components.schemas),
    ...(problemExtras.components as typeof components.schemas),
  };
  Object.assign(components.schemas.Problem!, { 'x-problem-extras': problemExtras.extras });
  moveRequestBodiesToComponents(document);
  return document;
}

type Document = ReturnType<typeof createDocument>;
type JsonBody = { content?: { 'application/json'?: { schema?: { $ref?: string } } } };

/**
 * Each named request body schema (`CreatePriceBody`, …) becomes a `components.requestBodies`
 * entry that operations refer to. A field with a `default` is optional in a request and always
 * present in an answer; generators read `default` that way only for request bodies (e.g.
 * openapi-typescript's default options make such a field required in a shared schema).
 */
function moveRequestBodiesToComponents(document: Document): void {
  const components = document.components!;
  const schemas = components.schemas!;
  const requestBodies: Record<string, unknown> = {};
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods as Record<string, { requestBody?: JsonBody | { $ref: string } }>)) {
      const ref = (operation.requestBody as JsonBody | undefined)?.content?.['application/json']?.schema?.$ref;
      const name = ref?.replace('#/components/schemas/', '');
      if (!name || !schemas[name]) continue;
      requestBodies[name] ??= { required: true, content: { 'application/json': { schema: schemas[name] } } };
      operation.requestBody = { $ref: `#/components/requestBodies/${name}` };
    }
  }
  for (const name of Object.keys(requestBodies)) delete schemas[name];
  const rendered = JSON.stringify(document);
  const stillReferred = Object.keys(requestBodies).filter((name) => rendered.includes(`"#/components/schemas/${name}"`));
  if (stillReferred.length > 0) throw new Error(`Request body schemas referred to elsewhere: ${stillReferred.join(', ')}`);
  components.requestBodies = requestBodies as typeof components.requestBodies;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
