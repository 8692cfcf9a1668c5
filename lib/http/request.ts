import crypto from 'node:crypto';
import { ApiError } from './errors';

export function newRequestId(): string {
  return `req_${crypto.randomBytes(12).toString('base64url')}`;
}

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <credential>".');
  return match[1];
}

export async function readJsonBody(rawBody: string): Promise<unknown> {
  if (rawBody.trim() === '') return {};
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new ApiError('VALIDATION_FAILED', 'The request body is not valid JSON.', {
      errors: [{ path: 'body', message: 'Invalid JSON.' }],
    });
  }
}

export function queryObject(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return query;
}
