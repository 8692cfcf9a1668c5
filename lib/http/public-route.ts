import { log } from '../log';
import { errorResponse } from './api-route';
import { newRequestId } from './request';

/** For unauthenticated endpoints (documents, health): request id, problem+json errors and logging. */
export function publicRoute(handler: (request: Request, requestId: string) => Promise<Response> | Response) {
  return async function route(request: Request): Promise<Response> {
    const requestId = newRequestId();
    const startedAt = performance.now();
    let response: Response;
    try {
      response = await handler(request, requestId);
      response.headers.set('X-Request-Id', requestId);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    log.info(
      { requestId, method: request.method, path: new URL(request.url).pathname, status: response.status, durationMs: Math.round(performance.now() - startedAt) },
      'request',
    );
    return response;
  };
}
