import { ConfigError, loadConfig } from '../lib/config';

/**
 * Imported first by the entry points (scripts/start.ts, scripts/worker.ts): ES modules run in
 * import order, so the environment is parsed before any other module reads the configuration,
 * and an invalid one stops the process here with its message instead of a stack trace later.
 */
try {
  loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
