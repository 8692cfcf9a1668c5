import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../log';
import { ApiError } from '../errors';
import { httpStatusOf, problemHeaders, toProblem } from './problem';
import { PROBLEM_TYPE } from './respond';
import { declaresTooLargeBody, discardsDeclaredBody, newRequestId, payloadTooLarge } from './request';
import { apiSecurityHeaders } from './security-headers';
import { notReadyError } from './readiness';
import { API_VERSION_HEADER, CURRENT_API_VERSION } from './api-versions';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
/** Pages answer GET (and HEAD); console forms post server actions. */
const PAGE_METHODS = ['GET', 'HEAD', 'POST'];

interface ApiRoute {
  segments: string[];
  methods: string[];
  /** `/api/Product/[productId]`: the route as metrics name it. */
  template: string;
}

/** The API route each request reached, found once by the front door (read again by the request metrics). */
const matchedRoutes = new WeakMap<IncomingMessage, ApiRoute>();

/**
 * Answers what Next.js would answer with an HTML page, an empty body or a plain-text 500,
 * before the request reaches it: a malformed `%` escape (400), a method no route has (405 with
 * `Allow`, TRACE included), an unknown `/api/` path (404), a method the API route does not
 * implement (405), a declared body over the limit (413) and a server action posted from
 * another origin (403). All as problem+json with `X-Request-Id`, `Paybase-Version` and the API's security headers.
 * Returns true when it answered.
 */
export function answerAtFrontDoor(request: IncomingMessage, response: ServerResponse, routes: ApiRoute[]): boolean {
  const method = request.method ?? 'GET';
  const pathname = (request.url ?? '/').split('?')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return refuse(
      request,
      response,
      new ApiError('VALIDATION_FAILED', 'The path has a malformed percent-encoding.', { errors: [{ path: 'path', message: 'Malformed % escape.' }] }),
    );
  }
  const isApi = decoded === '/api' || decoded.startsWith('/api/');
  const route = isApi ? findApiRoute(routes, pathname) : undefined;
  if (route) matchedRoutes.set(request, route);
  if (isApi && !route) return refuse(request, response, new ApiError('NOT_FOUND', `No API endpoint at ${pathname}.`));
  const allowed = route ? allowedMethods(route) : PAGE_METHODS;
  if (!allowed.includes(method)) {
    const allow = allowed.join(', ');
    return refuse(request, response, new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}.`), { Allow: allow });
  }
  const declaredLength = request.headers['content-length'];
  if (declaresTooLargeBody(declaredLength)) {
    // Unread, a body left in the socket makes its close a reset, which a client still sending sees instead of the 413.
    return refuse(request, response, payloadTooLarge(undefined, { discard: discardsDeclaredBody(declaredLength) }));
  }
  if (!isApi && isCrossOriginServerAction(request)) {
    return refuse(request, response, new ApiError('FORBIDDEN', 'A console action is only accepted from a page of this site: the Origin header names another.'));
  }
  return false;
}

/**
 * A server action (a POST with `Next-Action`, or a multipart form post) whose `Origin` is not
 * this host: Next.js refuses it as cross-site request forgery, but with a 500 (or a thrown
 * error). The same comparison as Next.js's action handler (`x-forwarded-host`'s first value,
 * else `Host`), so it is refused here, as a 403, before it reaches Next.js. A request without
 * `Origin` is let through to Next.js, which lets it through too (no browser sends one).
 */
function isCrossOriginServerAction(request: IncomingMessage): boolean {
  if (request.method !== 'POST') return false;
  const contentType = request.headers['content-type'] ?? '';
  if (request.headers['next-action'] === undefined && !contentType.startsWith('multipart/form-data')) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const forwardedHost = request.headers['x-forwarded-host'];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost?.split(',')[0]?.trim()) || request.headers.host;
  return !host || originHost(origin) !== host;
}

function originHost(origin: string): string | undefined {
  if (origin === 'null') return 'null';
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Every request while the embedded PostgreSQL is being started again (scripts/start.ts): 503
 * with `Retry-After`, rather than a 500 from each page and endpoint that needs the database.
 */
export function answerDatabaseRestarting(request: IncomingMessage, response: ServerResponse): true {
  return refuse(request, response, new ApiError('SERVICE_UNAVAILABLE', 'The database is restarting; retry in a few seconds.', { retryAfterSeconds: 5 }));
}

/** Before the database and Next.js are up (the port is taken first): every request, readiness included. */
export function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  refuse(request, response, notReadyError('starting'));
}

function refuse(request: IncomingMessage, response: ServerResponse, error: ApiError, headers: Record<string, string> = {}): true {
  const requestId = newRequestId();
  const status = httpStatusOf(error);
  response.writeHead(status, {
    'Content-Type': PROBLEM_TYPE,
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    // Made before any key is read: in the current version, like the route core's refusals.
    [API_VERSION_HEADER]: CURRENT_API_VERSION,
    ...apiSecurityHeaders(),
    ...problemHeaders(error),
    ...headers,
  });
  response.end(request.method === 'HEAD' ? undefined : JSON.stringify(toProblem(error, requestId)));
  log.info({ requestId, method: request.method, path: (request.url ?? '').split('?')[0], status }, 'request');
  return true;
}

function allowedMethods(route: ApiRoute): string[] {
  const methods = new Set(route.methods);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS'); // Next.js answers OPTIONS with the route's Allow header
  return METHODS.filter((method) => methods.has(method));
}

/** The template of the API route the front door matched for this request (`/api/Product/[productId]`), if any. */
export function matchedApiRouteTemplate(request: IncomingMessage): string | undefined {
  return matchedRoutes.get(request)?.template;
}

/** The route Next.js would pick: static segments before dynamic ones, as its router ranks them. */
function findApiRoute(routes: ApiRoute[], pathname: string): ApiRoute | undefined {
  const parts = pathname.split('/').filter(Boolean);
  let best: { route: ApiRoute; rank: string } | undefined;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    let rank = '';
    let matches = true;
    for (const [index, segment] of route.segments.entries()) {
      if (segment.startsWith('[')) rank += '1';
      else if (segment === parts[index]) rank += '0';
      else {
        matches = false;
        break;
      }
    }
    if (matches && (!best || rank < best.rank)) best = { route, rank };
  }
  return best?.route;
}

/**
 * The API's routes and the methods each exports, read from `app/api/**\/route.ts` (the sources
 * the running build was made from: scripts/build-state.ts rebuilds whenever they change).
 */
export function readApiRoutes(appDir: string): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, entry.name.startsWith('(') ? segments : [...segments, entry.name]);
      else if (entry.name === 'route.ts') {
        const source = fs.readFileSync(full, 'utf8');
        const methods = [...source.matchAll(/export\s+(?:const|(?:async\s+)?function)\s+(GET|POST|PUT|DELETE|PATCH)\b/g)].map((match) => match[1]!);
        routes.push({ segments, methods, template: `/${segments.join('/')}` });
      }
    }
  };
  walk(path.join(appDir, 'api'), ['api']);
  return routes;
}
