export * from './merchants';
export * from './idempotency';
export * from './events';
export * from './catalog';
export * from './customers';
export * from './entitlements';
export * from './email';
export * from './payments';
