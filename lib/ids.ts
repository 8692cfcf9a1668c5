import crypto from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * ulid's own source of randomness asks the operating system's CSPRNG once per character (16
 * calls per id); this one draws the same bytes from a pool refilled 4 KiB at a time. For ids
 * only: secrets (keys, tokens) take their bytes from crypto directly.
 */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;
function pooledByte(): number {
  if (poolOffset === pool.length) {
    crypto.randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}
const pooledRandom = () => pooledByte() / 256;

/** `length` random bytes for an identifier (a request id), from the same pool. */
export function randomIdBytes(length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = pooledByte();
  return bytes;
}

const ulid = monotonicFactory(pooledRandom);

export const ID_PREFIXES = {
  product: 'prod',
  price: 'price',
  entitlementPolicy: 'entpol',
  entitlementOverride: 'entovr',
  customer: 'cus',
  paymentMethod: 'pm',
  subscription: 'sub',
  subscriptionChange: 'subchg',
  subscriptionItem: 'subbr',
  meteredItem: 'si',
  testClock: 'clock',
  creditGrant: 'cgr',
  usage: 'usg',
  portalSession: 'pses',
  portalLink: 'plk',
  paymentLink: 'plink',
  checkoutDesign: 'design',
  checkout: 'cs',
  payment: 'pay',
  refund: 're',
  dispute: 'dsp',
  processorConnection: 'pcn',
  billingRecord: 'br',
  creditNote: 'cn',
  taxRate: 'txr',
  coupon: 'coupon',
  promotionCode: 'promo',
  webhookEndpoint: 'we',
  event: 'evt',
  delivery: 'wda',
  apiKey: 'key',
  merchant: 'mer',
  sellerUser: 'usr',
  sellerUserToken: 'sut',
  invitation: 'inv',
  recoveryCode: 'rc',
  member: 'mem',
  admin: 'adm',
  session: 'ses',
  refreshToken: 'rt',
  loginToken: 'mlt',
  request: 'req',
  auditEntry: 'aud',
  email: 'email',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Prefixed, random, URL-safe and sortable by creation time (ULID). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

/** Whether `value` has the shape of an id `newId(kind)` makes (its prefix and a ULID). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(ID_PREFIXES[kind].length + 1));
}
