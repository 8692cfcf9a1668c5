import type { components } from './schema.js';
import { verifyWebhook, type VerifyOptions } from './webhooks.js';

export { Paybase, createPaybase, type ListPath, type PaybaseOptions } from './client.js';
export { PaybaseError, isPaybaseError, type AnyPaybaseError, type ErrorCode, type Problem, type ProblemExtras } from './errors.js';
export { API_VERSION } from './api-version.js';
export type { RetryOptions } from './retry.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  WebhookVerificationError,
  computeWebhookSignature,
  parseSignatureHeader,
  verifyWebhook,
  webhookSignatureHeader,
  type VerifyOptions,
  type WebhookVerificationFailure,
} from './webhooks.js';
export { listen, newListenerSecret, type Listener, type ListenOptions, type ForwardedEvent } from './listen.js';
export type { components, operations, paths, webhooks } from './schema.js';

type Schemas = components['schemas'];
/** The body of any webhook delivery, discriminated by `type`. */
export type PaybaseEvent = { [K in keyof Schemas]: K extends `${string}EventBody` ? Schemas[K] : never }[keyof Schemas];

/** verifyWebhook with the body typed by the document: narrow with `switch (event.type)`. */
export function verifyPaybaseWebhook(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options?: VerifyOptions,
): PaybaseEvent {
  return verifyWebhook(rawBody, header, secrets, options) as unknown as PaybaseEvent;
}
