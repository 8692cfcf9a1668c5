import { ApiError } from '../errors';

/**
 * One dated version of the developer API: what a request, an answer or a webhook body looks like
 * is fixed by the version it is made in (docs/changelog.md). A request names its version with the
 * `Paybase-Version` header; without it, its API key's pinned version applies (docs/api.md,
 * "Versions").
 */
export interface ApiVersion {
  /** The version's name, the day it was released: `YYYY-MM-DD`. */
  name: string;
  /** What changed against the version before it; the first version describes the API as it was. */
  changes: readonly string[];
  /** Set when the version is deprecated: the day it stops being served (at least 12 months on). */
  retiresOn?: string;
}

/** Every version the server serves, oldest first: the one registry of versions and their changes. */
export const API_VERSIONS = [
  {
    name: '2026-11-27',
    changes: [
      'The first dated version: the developer API, its error codes and the webhook event bodies as documented in docs/api.md, docs/webhooks.md and the OpenAPI document on this day.',
      'Every answer carries `Paybase-Version`; every webhook delivery carries it as a header and as `apiVersion` in its body.',
      'API keys are pinned to the version current when they are created.',
    ],
  },
] as const satisfies readonly ApiVersion[];

export type ApiVersionName = (typeof API_VERSIONS)[number]['name'];

/** The newest version: new API keys are pinned to it and webhook bodies are rendered in it. */
export const CURRENT_API_VERSION: ApiVersionName = API_VERSIONS[API_VERSIONS.length - 1]!.name;

/** The oldest version served: keys made before versions existed are pinned to it (the behaviour they were built against). */
export const FIRST_API_VERSION: ApiVersionName = API_VERSIONS[0]!.name;

export const API_VERSION_HEADER = 'Paybase-Version';

const KNOWN = new Set<string>(API_VERSIONS.map((version) => version.name));

export function isApiVersion(name: string): name is ApiVersionName {
  return KNOWN.has(name);
}

/**
 * The version a request asks for with `Paybase-Version`, or undefined without the header; an
 * unknown version is a 400 that lists the known ones (refused before anything is done).
 */
export function requestedApiVersion(headers: Headers): ApiVersionName | undefined {
  const value = headers.get(API_VERSION_HEADER);
  if (value === null) return undefined;
  const name = value.trim();
  if (isApiVersion(name)) return name;
  const known = API_VERSIONS.map((version) => version.name);
  const message = `Unknown API version '${name.slice(0, 40)}'. Known versions: ${known.join(', ')} (docs/changelog.md).`;
  throw new ApiError('VALIDATION_FAILED', message, { errors: [{ path: API_VERSION_HEADER, message }], extra: { knownVersions: known } });
}

/**
 * The version an answer is made in: the request's header when given, else the API key's pinned
 * version. A key pinned to a version no longer served gets the oldest one served (the nearest to
 * what it was built against; docs/changelog.md, "Deprecation policy").
 */
export function apiVersionOf(headers: Headers, pinned: string): ApiVersionName {
  return requestedApiVersion(headers) ?? (isApiVersion(pinned) ? pinned : FIRST_API_VERSION);
}
