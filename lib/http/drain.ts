import type { Server, ServerResponse } from 'node:http';
import { log } from '../log';
import { isDraining, markDraining } from './readiness';

/**
 * The requests a web server is answering, so that stopping it can wait for them. Once the node
 * drains, every answer says `Connection: close`: a client (or balancer) does not send another
 * request on a connection about to go away, and Node closes the connection after the answer
 * (after `server.close()` it would otherwise keep a busy keep-alive connection open).
 */
export class RequestsInFlight {
  private readonly open = new Set<ServerResponse>();
  private whenNoneLeft: (() => void) | undefined;

  track(response: ServerResponse): void {
    if (isDraining()) response.setHeader('Connection', 'close');
    this.open.add(response);
    response.once('close', () => {
      this.open.delete(response);
      if (this.open.size === 0) this.whenNoneLeft?.();
    });
  }

  get count(): number {
    return this.open.size;
  }

  /** From now on, answers not yet begun close their connection. */
  closeConnectionsAfterAnswers(): void {
    for (const response of this.open) if (!response.headersSent) response.setHeader('Connection', 'close');
  }

  /** Settles when none is left, or after `timeoutMs` with those still running: true when none is left. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.open.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.whenNoneLeft = undefined;
        resolve(false);
      }, timeoutMs);
      this.whenNoneLeft = () => {
        clearTimeout(timer);
        this.whenNoneLeft = undefined;
        resolve(true);
      };
    });
  }
}

export interface DrainSettings {
  /** SHUTDOWN_READINESS_DELAY_MS: time for balancers polling readiness to see the 503 first. */
  readinessDelayMs: number;
  /** SHUTDOWN_DRAIN_MS: how long requests in progress may take to finish. */
  drainMs: number;
}

/**
 * Stops a web server without failing a request it accepted: readiness answers 503 at once;
 * after `readinessDelayMs` the server stops listening (new connections are refused, so a balancer
 * sends them to another node) and closes its idle keep-alive connections; requests in progress
 * finish, each closing its connection, for at most `drainMs`; whatever is still open then is cut.
 */
export async function drainServer(server: Server, inFlight: RequestsInFlight, settings: DrainSettings): Promise<void> {
  markDraining();
  inFlight.closeConnectionsAfterAnswers();
  log.info({ inFlight: inFlight.count, readinessDelayMs: settings.readinessDelayMs, drainMs: settings.drainMs }, 'draining: readiness answers 503');
  if (settings.readinessDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, settings.readinessDelayMs));

  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  log.info({ inFlight: inFlight.count }, 'draining: new connections are refused; waiting for the requests in progress');
  const finished = await inFlight.settled(settings.drainMs);
  if (!finished) log.warn({ cutOff: inFlight.count, drainMs: settings.drainMs }, 'draining: requests still running after SHUTDOWN_DRAIN_MS are cut off');
  // Idle keep-alive connections that answered during the drain, and anything still running.
  server.closeAllConnections();
  await closed;
  log.info('draining: done');
}
