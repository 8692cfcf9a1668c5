import http from 'node:http';
import { config } from '../config';
import { log } from '../log';
import { listenOn } from '../net';
import { answerMetrics, METRICS_PATH } from './endpoint';

/** `npm run worker`'s own `GET /metrics` (WORKER_METRICS_PORT): its jobs, recoveries and webhook attempts count here. */
export async function serveWorkerMetrics(port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.url?.split('?')[0] !== METRICS_PATH) return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
    void answerMetrics(request, response);
  });
  await listenOn(server, port, config.host, 'WORKER_METRICS_PORT');
  log.info({ port }, 'worker metrics at /metrics');
  return server;
}
