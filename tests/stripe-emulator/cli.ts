import { parseArgs } from 'node:util';
import { StripeEmulator } from './server';

/** `npm run stripe:emulator -- --port 12111`: the Stripe emulator on its own (test code, not Stripe). */
const { values } = parseArgs({ options: { port: { type: 'string', default: '12111' }, host: { type: 'string', default: '127.0.0.1' } } });
const emulator = new StripeEmulator({ port: Number(values.port), host: values.host });
await emulator.start();
console.log(
  `Stripe emulator (test code, not Stripe) on http://${values.host}:${values.port}: set STRIPE_API_URL to it and STRIPE_SECRET_KEY to any sk_test_… key.`,
);
process.on('SIGINT', () => void emulator.stop().then(() => process.exit(0)));
process.on('SIGTERM', () => void emulator.stop().then(() => process.exit(0)));
