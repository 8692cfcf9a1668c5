import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@/lib/server/openapi/document';

/**
 * Holds every answer the suite receives to the OpenAPI document: an answer of a documented
 * operation must have a documented status, the documented media type and a body that validates
 * against the documented schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 */
type Json = Record<string, any>;

const DOCUMENT_ID = 'https://paybase.test/openapi.json';
const document = buildOpenApiDocument('http://127.0.0.1') as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

interface Route {
  pattern: RegExp;
  path: string;
  params: number;
}

const routes: Route[] = Object.keys(document.paths)
  .map((path) => ({
    path,
    params: (path.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  // A literal segment wins over a parameter (/api/MerchantTeam/Invitation before /{userId}).
  .sort((a, b) => a.params - b.params);

const pointer = (...segments: string[]) => segments.map((segment) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
const validators = new Map<string, ValidateFunction>();

function validatorAt(path: string): ValidateFunction {
  let validate = validators.get(path);
  if (!validate) {
    validate = ajv.getSchema(`${DOCUMENT_ID}#/${path}`);
    if (!validate) throw new Error(`No schema at ${path}`);
    validators.set(path, validate);
  }
  return validate;
}

/** The documented operation a request reaches, if any. */
export function documentedOperation(method: string, url: string): { path: string; operation: Json } | undefined {
  const pathname = new URL(url, 'http://x').pathname;
  const route = routes.find((candidate) => candidate.pattern.test(pathname));
  const operation = route && document.paths[route.path][method.toLowerCase()];
  return operation ? { path: route.path, operation } : undefined;
}

/** Problems with one answer, or none when it matches the document (or reaches no documented operation). */
export function contractViolations(method: string, url: string, answer: { status: number; headers: Headers; text: string; body: unknown }): string[] {
  const found = documentedOperation(method, url);
  if (!found) return [];
  const { path, operation } = found;
  const status = String(answer.status);
  let responsePath = pointer('paths', path, method.toLowerCase(), 'responses', status);
  let response = operation.responses[status];
  if (!response) return [`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
  if (response.$ref) {
    const name = response.$ref.split('/').pop();
    responsePath = pointer('components', 'responses', name);
    response = document.components.responses[name];
  }
  if (!response.content) return answer.text === '' ? [] : [`status ${status} is documented without a body, got ${answer.text.slice(0, 200)}`];
  const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.content[mediaType]) return [`status ${status}: content type '${mediaType}' is not documented (${Object.keys(response.content).join(', ')})`];
  const validate = validatorAt(`${responsePath}/${pointer('content', mediaType, 'schema')}`);
  if (validate(answer.body)) return [];
  return (validate.errors ?? []).slice(0, 8).map((error) => `status ${status} body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}

/** What is wrong with a webhook body by the document's `webhooks` entry of its type (empty: nothing). */
export function webhookBodyViolations(type: string, body: unknown): string[] {
  const validate = validatorAt(pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema'));
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${type}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}

export { document as openApiDocument };
