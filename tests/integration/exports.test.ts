import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { csvField, decimalAmount, toCsv } from '@/lib/exports/csv';
import { exportCsv } from '@/lib/exports/exports';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice } from '../helpers/payments';
import { registerSeller } from '../helpers/sessions';

describe('CSV exports', () => {
  it('escapes fields and never lets a spreadsheet run a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('+1 555')).toBe("'+1 555");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(null)).toBe('');
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('a,b\r\n1,x\r\n');
    expect(decimalAmount(1234, 'USD')).toBe('12.34');
    expect(decimalAmount(500, 'JPY')).toBe('500');
    expect(decimalAmount(5, 'KWD')).toBe('0.005');
  });

  it('exports one seller’s payments, customers and subscriptions for a range', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1999, 'USD', '=cmd|calc');
    const paid = await api.post(
      '/api/Checkout',
      { priceId: price.id, customerEmail: 'csv@example.com', customerName: 'Smith, "Jo"', tokenRef: 'tok_visa' },
      ik(),
    );
    expect(paid.status, paid.text).toBe(201);
    const payments = await exportCsv(getDb(), merchant.id, 'payments', {});
    expect(payments.rows).toBe(1);
    const [header, line] = payments.csv.trim().split('\r\n');
    expect(header).toBe('id,created_at,status,amount,amount_refunded,currency,customer_id,description,card_brand,card_last4,failure_code');
    expect(line).toContain(`${paid.body.payment.id},`);
    expect(line).toContain(',succeeded,19.99,0.00,USD,');
    expect(line).toContain(",'=cmd|calc,");
    const customers = await exportCsv(getDb(), merchant.id, 'customers', {});
    expect(customers.csv).toContain('csv@example.com,"Smith, ""Jo""",');
    const future = await exportCsv(getDb(), merchant.id, 'payments', { from: new Date(Date.now() + 86_400_000) });
    expect(future.rows).toBe(0);
    expect((await exportCsv(getDb(), merchant.id, 'subscriptions', {})).rows).toBe(0);
    const other = await newMerchant();
    expect((await exportCsv(getDb(), other.merchant.id, 'payments', {})).rows).toBe(0);
  });

  it('downloads over HTTP for a signed-in seller only', async () => {
    const seller = await registerSeller();
    const cookie = `pb_merchant_at=${seller.tokens.accessToken}; pb_merchant_rt=${seller.tokens.refreshToken}`;
    const answer = await call('GET', '/merchant/exports/customers.csv?from=2020-01-01', { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    expect(answer.headers.get('content-disposition')).toContain('customers-from-2020-01-01.csv');
    expect(answer.text.startsWith('id,created_at,email')).toBe(true);
    expect((await call('GET', '/merchant/exports/secrets.csv', { headers: { cookie } })).status).toBe(404);
    const anonymous = await fetch(`${(await import('../helpers/api')).baseUrl()}/merchant/exports/payments.csv`, { redirect: 'manual' });
    expect(anonymous.status).not.toBe(200);
  });
});
