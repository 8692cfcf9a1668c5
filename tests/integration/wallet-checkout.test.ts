import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments } from '@/lib/db/schema';
import { payHostedCheckout } from '@/lib/checkout/hosted';
import { payHostedWithWallet, walletCardsForSeller } from '@/lib/checkout/wallet';
import { findOrCreateMember } from '@/lib/members/members';
import { newMerchant } from '../helpers/merchants';
import { adHocLink } from '../helpers/payments';

const unique = (label: string) => `${label}-${crypto.randomBytes(5).toString('hex')}@example.com`;

/** A customer pays seller's link with a typed card and agrees to save it. */
async function saveCardWith(api: Awaited<ReturnType<typeof newMerchant>>['api'], email: string, cardNumber = '4242424242424242') {
  const link = await adHocLink(api, { unitAmount: 500 });
  const result = await payHostedCheckout(getDb(), {
    token: link.token,
    attemptKey: crypto.randomUUID(),
    email,
    name: 'Wallet Owner',
    cardNumber,
    expiry: '12 / 34',
    cvc: '123',
    promotionCode: '',
    saveCard: true,
  });
  expect(result.kind).toBe('paid');
}

/** A new seller, and a member whose email saved a card with it: the card as the wallet offers it. */
async function memberWithSavedCard(label: string) {
  const seller = await newMerchant();
  const email = unique(label);
  await saveCardWith(seller.api, email);
  const member = await findOrCreateMember(getDb(), email);
  const [card] = (await walletCardsForSeller(getDb(), seller.merchant.id, email)).cards;
  return { seller, member, card };
}

describe('paying a hosted checkout with a wallet card', () => {
  it('offers and charges only cards saved with the same seller under the member’s verified email', async () => {
    const sellerA = await newMerchant();
    const sellerB = await newMerchant();
    const email = unique('wallet');
    await saveCardWith(sellerA.api, email.toUpperCase());
    const member = await findOrCreateMember(getDb(), email);

    // Seller B never sees or charges seller A's card.
    const atB = await walletCardsForSeller(getDb(), sellerB.merchant.id, member.email);
    expect(atB).toEqual({ cards: [], elsewhere: 1 });
    const atA = await walletCardsForSeller(getDb(), sellerA.merchant.id, member.email);
    expect(atA.elsewhere).toBe(0);
    expect(atA.cards).toHaveLength(1);
    expect(atA.cards[0]).toMatchObject({ label: 'Visa •••• 4242', expiry: '12/2034' });
    const cardA = atA.cards[0]!.id;

    const linkB = await adHocLink(sellerB.api, { unitAmount: 700 });
    const crossSeller = await payHostedWithWallet(getDb(), {
      token: linkB.token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: cardA,
      promotionCode: '',
    });
    expect(crossSeller).toMatchObject({ kind: 'invalid' });
    expect((await sellerB.api.get('/api/Payment')).body.totalCount).toBe(0);

    // Another member (another verified email) cannot use the card either.
    const stranger = await findOrCreateMember(getDb(), unique('stranger'));
    const linkA = await adHocLink(sellerA.api, { unitAmount: 1250, currency: 'EUR' });
    const notTheirs = await payHostedWithWallet(getDb(), {
      token: linkA.token,
      attemptKey: crypto.randomUUID(),
      memberId: stranger.id,
      paymentMethodId: cardA,
      promotionCode: '',
    });
    expect(notTheirs).toMatchObject({ kind: 'invalid' });

    // The owner pays seller A's link with it; a double submit (same attempt key) pays once.
    const attemptKey = crypto.randomUUID();
    const pay = () => payHostedWithWallet(getDb(), { token: linkA.token, attemptKey, memberId: member.id, paymentMethodId: cardA, promotionCode: '' });
    const [first, second] = await Promise.all([pay(), pay()]);
    expect(first).toMatchObject({ kind: 'paid' });
    expect(second).toEqual(first);
    const checkoutId = (first as { checkoutId: string }).checkoutId;
    const rows = await getDb().select().from(payments).where(eq(payments.checkoutId, checkoutId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 1250, currency: 'EUR', paymentMethodId: cardA, merchantId: sellerA.merchant.id });
    expect((await sellerA.api.get(`/api/Checkout/${checkoutId}`)).body).toMatchObject({ paid: true, total: 1250 });
  });

  it('answers a used-up link, an unknown promotion code and an unknown link in words', async () => {
    const { seller, member, card } = await memberWithSavedCard('declines');
    const once = await adHocLink(seller.api, { unitAmount: 300, singleUse: true });
    const paid = await payHostedWithWallet(getDb(), {
      token: once.token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: card!.id,
      promotionCode: '',
    });
    expect(paid.kind).toBe('paid');
    const again = await payHostedWithWallet(getDb(), {
      token: once.token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: card!.id,
      promotionCode: '',
    });
    expect(again).toMatchObject({ kind: 'unavailable', message: 'This payment link could be paid once, and it has already been paid.' });
    const badCode = await payHostedWithWallet(getDb(), {
      token: (await adHocLink(seller.api, { unitAmount: 300 })).token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: card!.id,
      promotionCode: 'NO-SUCH-CODE',
    });
    expect(badCode).toMatchObject({ kind: 'invalid', field: 'promotionCode' });
    expect(
      await payHostedWithWallet(getDb(), {
        token: 'nope-nope-nope',
        attemptKey: crypto.randomUUID(),
        memberId: member.id,
        paymentMethodId: card!.id,
        promotionCode: '',
      }),
    ).toMatchObject({
      kind: 'unavailable',
    });
  });

  it('buys the quantity chosen on a link whose quantity is adjustable, within its range only', async () => {
    const { seller, member, card } = await memberWithSavedCard('quantity');
    const candles = await adHocLink(seller.api, { unitAmount: 1000, quantity: 2, adjustableQuantity: { enabled: true, minimum: 1, maximum: 5 } });
    const pay = (quantity: number) =>
      payHostedWithWallet(getDb(), {
        token: candles.token,
        attemptKey: crypto.randomUUID(),
        memberId: member.id,
        paymentMethodId: card!.id,
        promotionCode: '',
        quantity,
      });

    const tooMany = await pay(6);
    expect(tooMany).toMatchObject({ kind: 'invalid', field: 'quantity', message: 'Choose a quantity from 1 to 5.' });
    expect((await seller.api.get('/api/Payment')).body.totalCount).toBe(1); // the card's saving payment only

    const three = await pay(3);
    expect(three).toMatchObject({ kind: 'paid' });
    const checkout = (await seller.api.get(`/api/Checkout/${(three as { checkoutId: string }).checkoutId}`)).body;
    expect(checkout).toMatchObject({ paid: true, total: 3000, quantity: 3 });
  });
});
