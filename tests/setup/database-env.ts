import { inject } from 'vitest';
import { loadConfig } from '../../lib/config';
import { SUITE_SERVER_ENV } from './server';

// Test helpers seed and inspect the same database the server uses.
process.env.DATABASE_URL = inject('databaseUrl');
// The same data directory, so tests can sign tokens with the server's key (lib/secret-key).
process.env.DATA_DIR = inject('dataDir');
process.env.LOG_LEVEL ??= 'warn';
// Merchants the tests create hash their passwords here, as cheaply as the test server does.
process.env.PASSWORD_SCRYPT_LOG2_N ??= '12';
// Passed on to the servers that tests start themselves (tests/setup/server.ts, `startServer`).
for (const [name, value] of Object.entries(SUITE_SERVER_ENV)) process.env[name] ??= value;
// Parsed once here, before any test module reads it: a bad variable fails every file with its message.
loadConfig();
