import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { ALL_OPERATIONS } from '@/lib/server/openapi/operations';
import { SESSION_OPERATIONS } from '@/lib/server/openapi/session-operations';
import type { Operation } from '@/lib/http/operation';
import type { SessionOperation } from '@/lib/http/session-operation';
import { call } from '../helpers/api';
import { openApiDocument } from '../helpers/contract';
import { newMerchant } from '../helpers/merchants';
import { credentialFor, pathFor, sellerWithOneOfEach, type Fixture } from '../helpers/fuzz-fixture';

/**
 * A bounded fuzzer driven by the OpenAPI document: for every developer-API operation, malformed
 * and boundary inputs (path ids, query values, bodies that are not JSON, not objects, or carry
 * one field of a type or size its schema forbids, bad Idempotency-Keys) never answer 5xx, always
 * answer problem+json that matches the document (call() checks that), and change no row of the
 * seller. Every input is invalid by construction, so no case may succeed.
 */
type Schema = Record<string, any>;

const RUNS_PER_OPERATION = 12;
const SEED = 1313;

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return resolve(
    schema.$ref
      .split('/')
      .slice(1)
      .reduce((node: Schema, key: string) => node[key.replaceAll('~1', '/')], openApiDocument),
  );
}

/** The JSON types a schema admits (undefined: it admits anything). */
function allowedTypes(input: Schema | undefined): Set<string> | undefined {
  const schema = resolve(input);
  if (!schema) return undefined;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const sets = alternatives.map(allowedTypes);
    return sets.includes(undefined) ? undefined : new Set(sets.flatMap((set: Set<string>) => [...set]));
  }
  if (schema.const !== undefined) return new Set([jsonType(schema.const)]);
  if (schema.enum) return new Set(schema.enum.map(jsonType));
  if (!schema.type) return undefined;
  const types = new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.has('integer')) types.add('number');
  return types;
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

const VALUES_BY_TYPE: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 40 }),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
  integer: fc.integer(),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.integer(), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
};

/** Values a property's schema refuses: another JSON type, or just past one of its bounds. */
function invalidValues(property: Schema): fc.Arbitrary<unknown> | undefined {
  const schema = resolve(property)!;
  const allowed = allowedTypes(schema);
  if (!allowed) return undefined;
  const candidates: fc.Arbitrary<unknown>[] = Object.entries(VALUES_BY_TYPE)
    .filter(([type]) => !allowed.has(type) && !(type === 'integer' && allowed.has('number')))
    .map(([, values]) => values);
  if (typeof schema.maxLength === 'number') candidates.push(fc.constant('x'.repeat(schema.maxLength + 1)));
  if (typeof schema.minLength === 'number' && schema.minLength > 0) candidates.push(fc.constant(''));
  if (typeof schema.maximum === 'number') candidates.push(fc.constant(schema.maximum + 1));
  if (typeof schema.minimum === 'number') candidates.push(fc.constant(schema.minimum - 1));
  if (schema.enum) candidates.push(fc.constant('NotOneOfTheValues'));
  if (typeof schema.maxItems === 'number') candidates.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, () => 'x')));
  return candidates.length > 0 ? fc.oneof(...candidates) : undefined;
}

interface Case {
  pathId: string;
  query: Record<string, string>;
  body?: string;
  idempotencyKey?: string;
}

const NOT_JSON = fc.constantFrom('{', '{"a":', 'nul', '[1,]', "{'a':1}", '');
const NOT_AN_OBJECT = fc
  .oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.array(fc.boolean(), { maxLength: 3 }))
  .map((value) => JSON.stringify(value));

function bodies(documented: Schema): fc.Arbitrary<string> {
  const schema = resolve(resolve(documented.requestBody)?.content?.['application/json']?.schema);
  const fields = Object.entries<Schema>(schema?.properties ?? {}).flatMap(([name, property]) => {
    const values = invalidValues(property);
    return values ? [values.map((value) => JSON.stringify({ [name]: value }))] : [];
  });
  return fc.oneof(NOT_JSON, NOT_AN_OBJECT, ...fields);
}

function queries(documented: Schema): fc.Arbitrary<Record<string, string>> {
  const parameters: Schema[] = (documented.parameters ?? []).map(resolve).filter((parameter: Schema) => parameter.in === 'query');
  const bad = parameters.flatMap((parameter) => {
    const schema = resolve(parameter.schema)!;
    const values: string[] = [];
    if (schema.enum) values.push('NotOneOfTheValues');
    if (schema.type === 'integer') values.push('abc', '1.5', String((schema.maximum ?? 2 ** 31) + 1), String((schema.minimum ?? 0) - 1));
    if (schema.format === 'date-time') values.push('yesterday', '2026-13-45T00:00:00Z');
    return values.map((value) => ({ [parameter.name]: value }));
  });
  return fc.oneof(fc.constant({ noSuchParameter: 'x' }), ...bad.map((query) => fc.constant(query)));
}

// A `.` or `..` id is not an id in a URL: the client removes dot segments, so the request goes
// to another path (answered 404 problem+json by the front door), not to this operation.
const PATH_IDS = fc.oneof(
  fc.string({ minLength: 1, maxLength: 80 }).filter((id) => id !== '.' && id !== '..'),
  fc.constantFrom('x'.repeat(65), `cus_${'z'.repeat(200)}`, ' ', '%', '\u{1F4A9}'),
);

function cases(operation: Operation, documented: Schema): fc.Arbitrary<Case> {
  const hasParams = Boolean(operation.params);
  const idempotencyKey = operation.idempotency ? fc.option(fc.oneof(fc.uuid(), fc.constant('k'.repeat(256))), { nil: undefined }) : fc.constant(undefined);
  const common = { pathId: hasParams ? PATH_IDS : fc.constant(''), idempotencyKey };
  if (operation.body) return fc.record({ ...common, query: fc.constant({}), body: bodies(documented) });
  if (operation.query) return fc.record({ ...common, query: queries(documented) });
  return fc.record({ ...common, query: fc.constant({}) });
}

/**
 * A fingerprint of every row the seller owns (the request log and the key's last use excepted).
 * An Idempotency-Key that reached execution stores its answer (DESIGN 4.7), and an unknown path
 * id is found while executing: such a stored 404 is the contract, not a change of state.
 */
async function sellerRows(merchantId: string): Promise<string> {
  const tables = await getDb().execute<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = 'merchant_id' and table_name not in ('api_request_logs', 'api_keys')
    order by table_name`);
  const parts: string[] = [];
  for (const { table_name } of tables.rows) {
    const [row] = (
      await getDb().execute<{ fingerprint: string }>(sql`
      select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as fingerprint
      from ${sql.identifier(table_name)} t
      where merchant_id = ${merchantId} ${table_name === 'idempotency_keys' ? sql`and t.response_status is distinct from 404` : sql``}`)
    ).rows;
    parts.push(`${table_name}=${row!.fingerprint}`);
  }
  return parts.join(' ');
}

describe('fuzzing every operation from the OpenAPI document', () => {
  it('answers malformed and boundary input with a documented 4xx problem and changes nothing', { timeout: 180_000 }, async () => {
    const { merchant, key } = await newMerchant();
    const before = await sellerRows(merchant.id);
    let requests = 0;
    for (const operation of ALL_OPERATIONS) {
      const documented = openApiDocument.paths[operation.path][operation.method.toLowerCase()];
      await fc.assert(
        fc.asyncProperty(cases(operation, documented), async (input) => {
          const path = operation.path.replace(/\{[^}]+\}/, encodeURIComponent(input.pathId));
          const query = new URLSearchParams(input.query).toString();
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (input.idempotencyKey) headers['idempotency-key'] = input.idempotencyKey;
          requests++;
          const answer = await call(operation.method, `${path}${query ? `?${query}` : ''}`, { key, rawBody: input.body, headers });
          const what = `${operation.method} ${path} ${JSON.stringify(input)} → ${answer.status} ${answer.text.slice(0, 300)}`;
          expect(answer.status, what).toBeGreaterThanOrEqual(400);
          expect(answer.status, what).toBeLessThan(500);
          expect(answer.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
        }),
        { numRuns: RUNS_PER_OPERATION, seed: SEED, endOnFailure: true },
      );
    }
    expect(await sellerRows(merchant.id)).toBe(before);
    expect(requests).toBe(ALL_OPERATIONS.length * RUNS_PER_OPERATION);
  });
});

const DEPTH = 10_000;
const NESTED: [string, string][] = [
  ['arrays nested 10,000 deep', '['.repeat(DEPTH) + ']'.repeat(DEPTH)],
  ['objects nested 10,000 deep', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
];

/**
 * Bodies with half a UTF-16 surrogate pair (`\ud800`, valid JSON, not text): in each documented
 * field, in a nested value (a metadata or properties object) and in a key. Raw JSON text, so the
 * escape reaches the server as written.
 */
function surrogateBodies(documented: Schema): [string, string][] {
  const schema = resolve(resolve(documented.requestBody)?.content?.['application/json']?.schema);
  return [
    ...Object.keys(schema?.properties ?? {}).map((name): [string, string] => [`a lone surrogate in ${name}`, `{"${name}":"\\ud800"}`]),
    ['a lone surrogate in a nested value', '{"metadata":{"note":["\\udfff"]}}'],
    ['a lone surrogate in a key', '{"\\ud800":1}'],
  ];
}

const BODY_OPERATIONS: (Operation | SessionOperation)[] = [...ALL_OPERATIONS, ...SESSION_OPERATIONS].filter((operation) => operation.method !== 'GET');

async function send(operation: Operation | SessionOperation, fixture: Fixture, rawBody: string | undefined) {
  const { key, headers } = credentialFor(operation, fixture);
  const sent = { ...headers, 'idempotency-key': crypto.randomUUID(), ...(rawBody === undefined ? {} : { 'content-type': 'application/json' }) };
  try {
    return await call(operation.method, pathFor(operation.path, fixture), { key, rawBody, headers: sent });
  } catch (error) {
    return { status: 0, body: undefined, text: String(error) };
  }
}

describe('hostile bodies on every operation that reads one (developer and sign-in APIs)', () => {
  it('answers nesting 10,000 deep and lone surrogates with 400 VALIDATION_FAILED, and empty PUT bodies without a 5xx', { timeout: 300_000 }, async () => {
    const fixture = await sellerWithOneOfEach();
    const failures: string[] = [];
    let requests = 0;
    for (const operation of BODY_OPERATIONS) {
      const documented = openApiDocument.paths[operation.path][operation.method.toLowerCase()];
      for (const [what, body] of [...NESTED, ...surrogateBodies(documented)]) {
        const answer = await send(operation, fixture, body);
        requests++;
        if (answer.status !== 400 || answer.body?.code !== 'VALIDATION_FAILED') {
          failures.push(`${operation.method} ${operation.path} with ${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
      if (operation.method !== 'PUT') continue;
      for (const [what, body] of [['no body', undefined] as const, ['{}', '{}'] as const]) {
        const answer = await send(operation, fixture, body);
        requests++;
        if (answer.status >= 500 || answer.status === 0)
          failures.push(`${operation.method} ${operation.path} with ${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
    expect(failures, `${failures.length} of ${requests} requests`).toEqual([]);
    expect(BODY_OPERATIONS.length).toBeGreaterThan(70);
  });
});
