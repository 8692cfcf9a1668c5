import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '@/lib/db/schema';
import { COLUMN_CASING } from '@/lib/db/client';

/** PostgreSQL's "terminating connection due to administrator command": the server is stopping. */
const SERVER_STOPPING = '57P01';

/**
 * A pool on the database of a server a test started itself. That server's PostgreSQL stops when
 * the test stops or restarts it, and an idle client then receives the termination; as in
 * lib/db/client.ts, that must not crash the test run. Any other error of an idle client is thrown.
 */
export function serverPool(databaseUrl: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== SERVER_STOPPING) throw error;
  });
  return pool;
}

/** The service's schema and column naming over such a pool, for reading and writing as the service does. */
export function serverDatabase(pool: pg.Pool) {
  return drizzle(pool, { schema, casing: COLUMN_CASING });
}
