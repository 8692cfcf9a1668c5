import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Requests each upstream answered, by its base URL. */
  answeredBy: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A small load balancer for tests, set as docs/operations.md recommends for nginx: requests go
 * round-robin to the upstreams; a request whose connection an upstream refuses (it stopped
 * listening: draining or gone) goes to the next one (nginx's `proxy_next_upstream error`: safe
 * for a POST too, since the upstream never received it); anything else is passed back as it is.
 * Bodies are read whole first, so a refused request can be sent again.
 */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  let next = 0;
  const answeredBy = new Map<string, number>();
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const start = next++;
    for (let tried = 0; tried < upstreams.length; tried++) {
      const upstream = upstreams[(start + tried) % upstreams.length]!;
      try {
        const answer = await forward(upstream, request, body);
        answeredBy.set(upstream, (answeredBy.get(upstream) ?? 0) + 1);
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
          response.writeHead(502).end(`upstream ${upstream}: ${(error as Error).message}`);
          return;
        }
      }
    }
    response.writeHead(502).end('no upstream accepted the connection');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answeredBy,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(upstream: string, request: http.IncomingMessage, body: Buffer) {
  const target = new URL(request.url ?? '/', upstream);
  const headers = { ...request.headers, host: target.host, connection: 'close' };
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const outgoing = http.request(target, { method: request.method, headers, agent: false }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => parts.push(chunk));
      answer.on('end', () => {
        const { connection: _connection, 'transfer-encoding': _encoding, ...passed } = answer.headers;
        resolve({ status: answer.statusCode ?? 502, headers: passed, body: Buffer.concat(parts) });
      });
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
