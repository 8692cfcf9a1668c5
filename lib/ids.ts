import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

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
  billingRecord: 'br',
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
