import { inject } from 'vitest';

// Test helpers seed and inspect the same database the server uses.
process.env.DATABASE_URL = inject('databaseUrl');
// The same data directory, so tests can sign tokens with the server's key (lib/auth/secret-key).
process.env.DATA_DIR = inject('dataDir');
process.env.LOG_LEVEL ??= 'warn';
// Merchants the tests create hash their passwords here, as cheaply as the test server does.
process.env.PASSWORD_SCRYPT_LOG2_N ??= '12';
