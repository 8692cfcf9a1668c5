import { describe, expect, it } from 'vitest';
import { keyWithScopes, newMerchant } from '../helpers/merchants';

// Issue 32: a seller's tax rates (docs/invoices.md, "Tax rates").

describe('tax rates', () => {
  it('creates, lists, reads, renames and archives a rate; its percentage is exact and cannot change', async () => {
    const { api } = await newMerchant();
    const vat = await api.post('/api/TaxRate', { displayName: 'VAT', percentage: '20.50', inclusive: true, country: 'de', description: 'German VAT' });
    expect(vat.status, vat.text).toBe(201);
    expect(vat.body).toMatchObject({
      id: expect.stringMatching(/^txr_/),
      displayName: 'VAT',
      percentage: '20.5',
      inclusive: true,
      country: 'DE',
      jurisdiction: null,
      active: true,
    });
    const salesTax = await api.post('/api/TaxRate', { displayName: 'Sales tax', percentage: '8.875', inclusive: false, country: 'US', jurisdiction: 'NY' });
    expect(salesTax.status, salesTax.text).toBe(201);
    const zero = await api.post('/api/TaxRate', { displayName: 'Zero-rated', percentage: '0', inclusive: true });
    expect(zero.body).toMatchObject({ percentage: '0', country: null });

    expect((await api.get(`/api/TaxRate/${salesTax.body.id}`)).body).toEqual(salesTax.body);
    const us = await api.get('/api/TaxRate?country=us');
    expect(us.body.data.map((rate: { id: string }) => rate.id)).toEqual([salesTax.body.id]);
    const inclusive = await api.get('/api/TaxRate?inclusive=true&orderBy=displayName');
    expect(inclusive.body.data.map((rate: { displayName: string }) => rate.displayName)).toEqual(['Zero-rated', 'VAT']);

    const renamed = await api.put(`/api/TaxRate/${vat.body.id}`, { displayName: 'MwSt', jurisdiction: 'Bayern' });
    expect(renamed.body).toMatchObject({ displayName: 'MwSt', jurisdiction: 'Bayern', percentage: '20.5' });
    const archived = await api.put(`/api/TaxRate/${vat.body.id}`, { active: false });
    expect(archived.body.active).toBe(false);
    expect((await api.get('/api/TaxRate?active=true')).body.data).toHaveLength(2);

    const changeRate = await api.put(`/api/TaxRate/${vat.body.id}`, { percentage: '19' });
    expect(changeRate.status).toBe(400);
    expect(changeRate.body.code).toBe('VALIDATION_FAILED');
    expect((await api.get(`/api/TaxRate/${vat.body.id}`)).body.percentage).toBe('20.5');
  });

  it('refuses malformed rates naming the field, and keeps each seller to its own', async () => {
    const { api, merchant } = await newMerchant();
    for (const [body, field] of [
      [{ displayName: 'VAT', percentage: '100', inclusive: true }, 'percentage'],
      [{ displayName: 'VAT', percentage: '20.12345', inclusive: true }, 'percentage'],
      [{ displayName: 'VAT', percentage: 20, inclusive: true }, 'percentage'],
      [{ displayName: 'VAT', percentage: '20', inclusive: true, country: 'DEU' }, 'country'],
      [{ displayName: '', percentage: '20', inclusive: true }, 'displayName'],
      [{ displayName: 'VAT', percentage: '20' }, 'inclusive'],
    ] as const) {
      const answer = await api.post('/api/TaxRate', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toEqual([field]);
    }
    const rate = await api.post('/api/TaxRate', { displayName: 'GST', percentage: '10', inclusive: false, country: 'AU' });
    const other = await newMerchant();
    expect((await other.api.get(`/api/TaxRate/${rate.body.id}`)).status).toBe(404);
    expect((await other.api.put(`/api/TaxRate/${rate.body.id}`, { active: false })).status).toBe(404);
    expect((await other.api.get('/api/TaxRate')).body.data).toEqual([]);

    const reader = await keyWithScopes(merchant.id, ['prices:read']);
    expect((await reader.api.get('/api/TaxRate')).status).toBe(200);
    expect((await reader.api.post('/api/TaxRate', { displayName: 'X', percentage: '1', inclusive: true })).status).toBe(403);
  });
});
