import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getPool } from './client';

export async function migrateDatabase(): Promise<void> {
  await migrate(drizzle(getPool()), { migrationsFolder: path.resolve('db/migrations') });
}
