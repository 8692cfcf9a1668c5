import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';

/** Payment links whose customer chooses the quantity (docs/payments.md, "Adjustable quantity"). */
describe('adjustable quantity on payment links', () => {
  it('is set between bounds the link quantity lies in, for one-time links only, and cleared by PUT', async () => {
    const { api } = await newMerchant();
    const created = await api.post('/api/PaymentLink', {
      name: 'Candle',
      unitAmount: 1000,
      currency: 'USD',
      quantity: 2,
      adjustableQuantity: { enabled: true, minimum: 1, maximum: 5 },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ quantity: 2, amount: 2000, adjustableQuantity: { enabled: true, minimum: 1, maximum: 5 } });

    const defaults = await api.post('/api/PaymentLink', { name: 'Soap', unitAmount: 500, currency: 'USD', adjustableQuantity: { enabled: true } });
    expect(defaults.body.adjustableQuantity).toEqual({ enabled: true, minimum: 1, maximum: 99 });
    const fixed = await api.post('/api/PaymentLink', { name: 'Mug', unitAmount: 500, currency: 'USD' });
    expect(fixed.body.adjustableQuantity).toEqual({ enabled: false, minimum: 1, maximum: 99 });

    const refusals: [Record<string, unknown>, string][] = [
      [{ quantity: 6, adjustableQuantity: { enabled: true, maximum: 5 } }, 'quantity'],
      [{ adjustableQuantity: { enabled: true, minimum: 4, maximum: 3 } }, 'adjustableQuantity.minimum'],
      [{ unitAmount: 100_000_000, adjustableQuantity: { enabled: true, maximum: 50 } }, 'adjustableQuantity.maximum'],
    ];
    for (const [body, path] of refusals) {
      const refused = await api.post('/api/PaymentLink', { name: 'Candle', unitAmount: 1000, currency: 'USD', ...body });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.errors[0].path).toBe(path);
    }
    const product = await api.post('/api/Product', { name: 'Club' });
    const monthly = await api.post('/api/Price', { productId: product.body.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    const recurring = await api.post('/api/PaymentLink', { priceId: monthly.body.id, adjustableQuantity: { enabled: true } });
    expect(recurring.status).toBe(400);
    expect(recurring.body.errors[0].path).toBe('adjustableQuantity.enabled');

    const outOfBounds = await api.put(`/api/PaymentLink/${created.body.id}`, { quantity: 7 });
    expect(outOfBounds.status).toBe(400);
    expect(outOfBounds.body.errors[0].path).toBe('quantity');
    const cleared = await api.put(`/api/PaymentLink/${created.body.id}`, { quantity: 7, adjustableQuantity: { enabled: false } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ quantity: 7, adjustableQuantity: { enabled: false } });
  });

  it('a checkout of the link buys any quantity in its range, and only the link quantity of a fixed link', async () => {
    const { api } = await newMerchant();
    const link = (
      await api.post('/api/PaymentLink', {
        name: 'Candle',
        unitAmount: 1000,
        currency: 'USD',
        adjustableQuantity: { enabled: true, minimum: 2, maximum: 5 },
        quantity: 2,
      })
    ).body;
    const completed = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'buyer@example.com', tokenRef: 'tok_visa', quantity: 4 }, ik());
    expect(completed.status, completed.text).toBe(201);
    expect(completed.body).toMatchObject({ paid: true, total: 4000, quantity: 4 });
    const viaCheckout = await api.post(
      '/api/Checkout',
      { paymentLinkToken: link.token, customerEmail: 'b@example.com', tokenRef: 'tok_visa', quantity: 5 },
      ik(),
    );
    expect(viaCheckout.body).toMatchObject({ paid: true, total: 5000 });

    for (const quantity of [1, 6]) {
      const refused = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'buyer@example.com', tokenRef: 'tok_visa', quantity }, ik());
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ path: 'quantity', message: expect.stringContaining('between 2 and 5') });
    }
    const fixed = (await api.post('/api/PaymentLink', { name: 'Mug', unitAmount: 500, currency: 'USD' })).body;
    const refused = await api.post(`/api/PaymentLink/${fixed.id}/Complete`, { customerEmail: 'buyer@example.com', tokenRef: 'tok_visa', quantity: 3 }, ik());
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe('quantity');
    const same = await api.post(`/api/PaymentLink/${fixed.id}/Complete`, { customerEmail: 'buyer@example.com', tokenRef: 'tok_visa', quantity: 1 }, ik());
    expect(same.status, same.text).toBe(201);
  });
});
