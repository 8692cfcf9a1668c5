import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { OPERATIONS, type StripeOperation } from './operations';

/**
 * Request parameters as Stripe reads them (test code): form-encoded (`a[b][0]=x`, what the SDK
 * sends) or a query string, checked against the JSON Schema made from the `stripe` package's
 * own parameter type for the operation (generate-schemas.ts). A refusal has Stripe's shape:
 * 400 `invalid_request_error` with the parameter in Stripe's bracket notation.
 */

export interface StripeErrorBody {
  error: { type: string; message: string; code?: string; param?: string; decline_code?: string; [more: string]: unknown };
}

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.error.message);
  }
}

export function invalidRequest(message: string, param?: string, code?: string): StripeError {
  return new StripeError(400, { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) } });
}

/** `a[b][0]=x&a[b][1]=y` → `{ a: { b: ['x', 'y'] } }`; empty values stay '' (Stripe's "unset"). */
export function parseParams(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) throw invalidRequest(`Invalid parameter name: ${rawKey}`, rawKey);
    const keys = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: Record<string, unknown> = root;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) node[key] = value;
      else {
        const next = node[key];
        if (next !== undefined && (typeof next !== 'object' || next === null)) throw invalidRequest(`Invalid parameter: ${rawKey}`, rawKey);
        if (next === undefined) node[key] = {};
        node = node[key] as Record<string, unknown>;
      }
    });
  }
  return arraysOf(root) as Record<string, unknown>;
}

/** Objects whose keys are exactly 0..n-1 are the SDK's arrays. */
function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arraysOf(v)] as const);
  const indexed = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return indexed ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

const schemaDir = path.join(import.meta.dirname, 'schemas');

function checkSchemaVersion() {
  const generatedFor = JSON.parse(fs.readFileSync(path.join(schemaDir, 'stripe-version.json'), 'utf8')).stripe as string;
  const installed = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/stripe/package.json'), 'utf8')).version as string;
  if (generatedFor !== installed) {
    throw new Error(
      `The emulator's schemas were made from stripe ${generatedFor}, but ${installed} is installed: run npx tsx tests/stripe-emulator/generate-schemas.ts`,
    );
  }
}

export interface CompiledOperation extends StripeOperation {
  pattern: RegExp;
  validate: ValidateFunction;
}

/** Every operation with its compiled validator; form values are strings, so types are coerced as Stripe does. */
export function compileOperations(): CompiledOperation[] {
  checkSchemaVersion();
  const ajv = new Ajv({ coerceTypes: true, strict: false, allErrors: true });
  return OPERATIONS.map((op) => ({
    ...op,
    pattern: new RegExp(`^${op.path.replace(':id', '([^/]+)')}$`),
    validate: ajv.compile(JSON.parse(fs.readFileSync(path.join(schemaDir, `${op.paramsType}.json`), 'utf8'))),
  }));
}

/** Throws Stripe's 400 for the first problem ajv found. */
export function validateParams(op: CompiledOperation, params: Record<string, unknown>): void {
  if (op.validate(params)) return;
  throw stripeErrorOf(op.validate.errors ?? []);
}

function stripeErrorOf(errors: ErrorObject[]): StripeError {
  // Inside an `anyOf` (an object or '' to unset it) the object branch's complaint names the parameter.
  const deepestFirst = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const unknown = deepestFirst.find((e) => e.keyword === 'additionalProperties');
  const missing = deepestFirst.find((e) => e.keyword === 'required');
  if (unknown) {
    const param = bracketed(unknown.instancePath, (unknown.params as { additionalProperty: string }).additionalProperty);
    return invalidRequest(`Received unknown parameter: ${param}`, param, 'parameter_unknown');
  }
  if (missing) {
    const param = bracketed(missing.instancePath, (missing.params as { missingProperty: string }).missingProperty);
    return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
  }
  // The shallowest failing parameter (an anyOf names the parameter, not one of its branches).
  const first = [...errors].sort((a, b) => a.instancePath.length - b.instancePath.length)[0]!;
  const param = bracketed(first.instancePath);
  const expected = first.keyword === 'type' ? (first.params as { type: string }).type : first.keyword === 'enum' ? 'value' : 'value';
  const code = expected === 'number' ? 'parameter_invalid_integer' : 'parameter_invalid';
  return invalidRequest(`Invalid ${expected === 'number' ? 'integer' : expected} for ${param}: ${first.message ?? 'not valid'}`, param, code);
}

/** `/payment_method_options/card/0` (+ `extra`) → `payment_method_options[card][0][extra]`. */
function bracketed(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra !== undefined) parts.push(extra);
  const [head, ...rest] = parts;
  return `${head ?? ''}${rest.map((p) => `[${p}]`).join('')}`;
}
