import { handleRequest } from './route-core';

/** For unauthenticated endpoints (documents, health): request id, problem+json errors and logging. */
export function publicRoute(handler: (request: Request, requestId: string) => Promise<Response> | Response) {
  return (request: Request): Promise<Response> => handleRequest(request, async (requestId) => handler(request, requestId));
}
