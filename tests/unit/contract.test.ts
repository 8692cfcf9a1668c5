import { describe, expect, it } from 'vitest';
import { contractViolations } from '../helpers/contract';

/**
 * The run-time half of typed outputs: `call()` (tests/helpers/api.ts) throws on any answer this
 * check refuses, so an undocumented status, media type or body fails the test that received it.
 */
const JSON_TYPE = { 'content-type': 'application/json' };
const PROBLEM_TYPE = { 'content-type': 'application/problem+json' };

function answer(status: number, body: unknown, headers: Record<string, string> = JSON_TYPE) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: new Headers(headers), text, body };
}

const price = {
  id: 'price_1',
  productId: 'prod_1',
  type: 'Recurring',
  amount: 1500,
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
  trialDays: null,
  usageType: 'licensed',
  feature: null,
  aggregation: null,
  aggregationProperty: null,
  unitAmountDecimal: null,
  tiers: null,
  tiersMode: null,
  packageSize: null,
  taxRateIds: [],
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const notFound = { type: 'https://paybase.dev/errors/not-found', title: 'Not found', status: 404, detail: 'No price.', code: 'NOT_FOUND', requestId: 'req_1' };

describe('contractViolations', () => {
  it('accepts an answer that matches the document', () => {
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, price))).toEqual([]);
    expect(contractViolations('GET', '/api/Price/price_1', answer(404, notFound, PROBLEM_TYPE))).toEqual([]);
  });

  it('refuses a status the operation does not document', () => {
    expect(contractViolations('GET', '/api/Price/price_1', answer(201, price))).toEqual([expect.stringMatching(/^status 201 is not documented/)]);
  });

  it('refuses a media type the status does not document', () => {
    expect(contractViolations('GET', '/api/Price/price_1', answer(404, notFound))).toEqual([
      expect.stringMatching(/content type 'application\/json' is not documented/),
    ]);
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, price, PROBLEM_TYPE))).toEqual([
      expect.stringMatching(/content type 'application\/problem\+json' is not documented/),
    ]);
  });

  it('refuses a body that does not match the schema: missing, extra or mistyped members', () => {
    const { active: _active, ...withoutActive } = price;
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, withoutActive)).join('\n')).toMatch(/must have required property 'active'/);
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, { ...price, secret: 'x' })).join('\n')).toMatch(/must NOT have additional properties/);
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, { ...price, amount: '1500' })).join('\n')).toMatch(/body\/amount must be integer/);
    expect(contractViolations('GET', '/api/Price/price_1', answer(200, { ...price, createdAt: 'yesterday' })).join('\n')).toMatch(
      /body\/createdAt must match format "date-time"/,
    );
  });

  it('refuses a body on a status documented without one', () => {
    expect(contractViolations('POST', '/api/MerchantAuth/Logout', answer(204, undefined))).toEqual([]);
    expect(contractViolations('POST', '/api/MerchantAuth/Logout', answer(204, { ok: true }))).toEqual([
      expect.stringMatching(/^status 204 is documented without a body/),
    ]);
  });

  it('holds sign-in answers to their schemas too', () => {
    const seller = {
      id: 'mer_1',
      email: 'a@example.com',
      name: 'Shop',
      accountType: 'Business',
      status: 'active',
      createdAt: price.createdAt,
      updatedAt: price.createdAt,
    };
    expect(contractViolations('GET', '/api/Auth/Identity', answer(200, { userType: 'Admin', id: 'adm_1', name: 'Ops', createdAt: price.createdAt }))).toEqual(
      [],
    );
    // A seller's identity without its signed-in `user` matches none of the three shapes.
    expect(contractViolations('GET', '/api/Auth/Identity', answer(200, { ...seller, userType: 'Merchant', role: 'Owner' }))).not.toEqual([]);
  });

  it('leaves alone what no operation documents (pages, files)', () => {
    expect(contractViolations('GET', '/pay/plink_1', answer(200, '<html>', { 'content-type': 'text/html' }))).toEqual([]);
  });
});
