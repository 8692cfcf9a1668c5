import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../helpers/api';

/**
 * A web node keeps an idle connection open longer than a balancer does (HTTP_KEEP_ALIVE_TIMEOUT_MS,
 * 65 s by default), so the balancer closes it first: Node's own 5 s would close connections a
 * balancer (or a client's pool) is about to send a request on.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

function get(path: string): Promise<{ status: number; reusedSocket: boolean; keepAlive: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, baseUrl()), { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode!, reusedSocket: request.reusedSocket, keepAlive: response.headers['keep-alive'] as string | undefined }),
      );
    });
    request.on('error', reject);
  });
}

describe('an idle client connection', () => {
  it('is still open after Node’s default 5 s, and says how long it stays', async () => {
    const first = await get('/api/health');
    expect(first).toMatchObject({ status: 200, reusedSocket: false, keepAlive: 'timeout=65' });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await get('/api/health')).toMatchObject({ status: 200, reusedSocket: true });
  });
});
