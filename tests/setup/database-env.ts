import { inject } from 'vitest';

// Test helpers seed and inspect the same database the server uses.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.LOG_LEVEL ??= 'warn';
