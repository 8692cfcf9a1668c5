import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getDb } from './client';

export async function migrateDatabase(): Promise<void> {
  await migrate(getDb(), { migrationsFolder: path.resolve('db/migrations') });
}
