import { expect } from 'vitest';
import { SCOPES } from '@/lib/http/scopes';
import type { Operation } from '@/lib/http/operation';
import type { SessionOperation } from '@/lib/http/session-operation';
import type { client } from './api';
import { keyWithScopes } from './merchants';
import { freshIp, newAdmin, registerSeller, signInMember } from './sessions';

type Api = ReturnType<typeof client>;

/**
 * A seller with one resource of each kind an operation edits in place (the PUTs), its Owner's
 * sign-in, a platform admin and a wallet member: what a request needs to get past authentication
 * and a path id to the body its handler works with.
 */
export async function sellerWithOneOfEach() {
  const seller = await registerSeller();
  const { key, api } = await keyWithScopes(seller.merchantId, SCOPES);
  const created = async (path: string, body: unknown): Promise<string> => {
    const answer = await api.post(path, body);
    expect(answer.status, `${path} ${answer.text}`).toBe(201);
    return answer.body.id;
  };
  const productId = await created('/api/Product', { name: 'Fuzz' });
  const customerId = await created('/api/Customer', { email: 'fuzz@example.com' });
  const couponId = await created('/api/Coupon', { percentOff: 10 });
  const ids: Record<string, string> = {
    productId,
    customerId,
    priceId: await created('/api/Price', { productId, type: 'OneTime', amount: 1000, currency: 'USD' }),
    paymentLinkId: await created('/api/PaymentLink', { name: 'Fuzz', unitAmount: 500, currency: 'USD' }),
    designId: await created('/api/CheckoutDesign', { displayName: 'Fuzz' }),
    promotionCodeId: await created('/api/PromotionCode', { couponId, code: 'FUZZ' }),
    endpointId: await created('/api/WebhookEndpoint', { url: 'http://127.0.0.1:9/hook', events: ['*'] }),
    merchantId: seller.merchantId,
  };
  await customValue(api, customerId);
  const admin = await newAdmin();
  const member = await signInMember();
  return { key, ids, tokens: { merchant: seller.tokens.accessToken, admin: admin.tokens.accessToken, member: member.tokens.accessToken } };
}

async function customValue(api: Api, customerId: string) {
  const answer = await api.post(`/api/Customer/${customerId}/CustomValue`, { key: 'fuzz', value: 'x' });
  expect(answer.status, answer.text).toBe(201);
}

export type Fixture = Awaited<ReturnType<typeof sellerWithOneOfEach>>;

/** The credential an operation takes from the fixture (none for a public sign-in endpoint). */
export function credentialFor(operation: Operation | SessionOperation, fixture: Fixture): { key?: string; headers: Record<string, string> } {
  if (!('access' in operation)) return { key: fixture.key, headers: {} };
  if (operation.access === 'public') return { headers: freshIp() };
  const audience = operation.access.includes('merchant') ? 'merchant' : operation.access.includes('admin') ? 'admin' : 'member';
  return { key: fixture.tokens[audience], headers: {} };
}

/** The path with each `{param}` replaced by the fixture's id of it (an unknown id where it has none). */
export function pathFor(path: string, fixture: Fixture): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(fixture.ids[name] ?? `${name}_none`));
}
