import pino from 'pino';
import { config } from './config';

/** JSON logs; anything that could carry a secret is redacted by key name. */
export const log = pino({
  level: config.logLevel,
  base: undefined,
  redact: {
    paths: [
      'authorization',
      '*.authorization',
      'headers.authorization',
      'headers.cookie',
      'password',
      '*.password',
      'secret',
      '*.secret',
      'refreshToken',
      '*.refreshToken',
      'accessToken',
      '*.accessToken',
      'signingSecret',
      '*.signingSecret',
      'databaseUrl',
    ],
    censor: '[redacted]',
  },
});
