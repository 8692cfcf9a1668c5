/**
 * The benchmark's webhook receiver, in its own process so it never competes with the
 * dispatcher's event loop: node:http with keep-alive, answering 200 at once (paths under
 * /dead never answer; paths under /slow answer after RECEIVER_DELAY_MS, as a receiver that does
 * its work before answering). It keeps the first arrival of every (path, event id) and counts
 * repeats; GET /_stats?prefix=/scope returns them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Arrival {
  /** ms since epoch (wall clock, comparable with the server's event createdAt) */
  at: number;
  /** the event's createdAt, from the body */
  createdAt: number;
  /** data.object.id, from the body (the bench maps it to its API request) */
  objectId: string;
}

const firsts = new Map<string, Arrival>();
let duplicates = new Map<string, number>();
let total = 0;
const CREATED_AT = /"createdAt":"([^"]+)"/;
const OBJECT_ID = /"object":\{"id":"([^"]+)"/;
const SLOW_ANSWER_MS = Number(process.env.RECEIVER_DELAY_MS ?? 250);

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url?.startsWith('/_stats')) {
    const prefix = new URL(req.url, 'http://x').searchParams.get('prefix') ?? '/';
    const arrivals: [string, number, number, string][] = [];
    for (const [key, arrival] of firsts) if (key.startsWith(prefix)) arrivals.push([key, arrival.at, arrival.createdAt, arrival.objectId]);
    let repeated = 0;
    for (const [key, count] of duplicates) if (key.startsWith(prefix)) repeated += count;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ total, duplicates: repeated, arrivals }));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    total++;
    const key = `${req.url} ${req.headers['x-service-event-id']}`;
    if (firsts.has(key)) duplicates.set(key, (duplicates.get(key) ?? 0) + 1);
    else {
      const body = Buffer.concat(chunks).toString('utf8');
      const createdAt = CREATED_AT.exec(body)?.[1];
      firsts.set(key, { at, createdAt: createdAt ? Date.parse(createdAt) : NaN, objectId: OBJECT_ID.exec(body)?.[1] ?? '' });
    }
    if (req.url?.startsWith('/dead')) return; // never answers: the sender times out
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    };
    if (req.url?.startsWith('/slow')) setTimeout(answer, SLOW_ANSWER_MS);
    else answer();
  });
});
server.keepAliveTimeout = 30_000;
server.headersTimeout = 35_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  duplicates = new Map();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
