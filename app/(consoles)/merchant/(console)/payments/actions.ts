'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { invalidField } from '@/lib/errors';
import { findPaymentRow } from '@/lib/payments/payments';
import { refundPayment } from '@/lib/payments/refunds';
import { RefundBody } from '@/lib/payments/schemas';
import { formatMoney } from '@/lib/money/format';
import { parseMoney } from '@/lib/money/parse';
import { runConsoleOnce } from '@/lib/server/web/console-once';
import { assertSellerMayRefund } from '@/lib/auth/seller-access';
import { sellerAction } from '../../session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';

/** Refunds part or all of a payment, once per form key (a double submit refunds once). */
export async function refundAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const access = await sellerAction('refunds:create');
    const merchantId = access.merchantId;
    const db = getDb();
    const paymentId = field(form, 'paymentId');
    const payment = await findPaymentRow(db, merchantId, paymentId);
    const amount = parseMoney(field(form, 'amount'), payment.currency);
    if (!amount)
      throw invalidField('amount', `Enter an amount in ${payment.currency} greater than zero, such as ${formatMoney(payment.amount, payment.currency)}.`);
    // The amount must be the one the person confirmed in words (the form's second step).
    if (field(form, 'confirmedAmount') !== String(amount)) {
      throw invalidField('amount', `Confirm the amount: review the refund of ${formatMoney(amount, payment.currency)} and press its button.`);
    }
    const body = parseForm(RefundBody, { amount, reason: field(form, 'reason') || undefined });
    await assertSellerMayRefund(db, access, { amount: body.amount ?? payment.amount, currency: payment.currency });
    const { result: refund } = await runConsoleOnce(db, { merchantId, key: field(form, 'refundKey'), action: `refund:${paymentId}`, body }, (phases) =>
      refundPayment(phases, merchantId, paymentId, body),
    );
    revalidatePath(`/merchant/payments/${paymentId}`);
    if (refund.status !== 'succeeded')
      return { error: `The refund of ${formatMoney(refund.amount, refund.currency)} failed: ${refund.failureMessage ?? 'the processor refused it.'}` };
    return { notice: `Refunded ${formatMoney(refund.amount, refund.currency)}.` };
  });
}
