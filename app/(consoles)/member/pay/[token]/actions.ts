'use server';

import { getDb } from '@/lib/db/client';
import { payHostedWithWallet } from '@/lib/checkout/wallet';
import type { HostedPaymentResult } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { actionLocale } from '@/lib/server/web/page-locale';
import { requireSession } from '@/lib/server/web/session';

/** The member comes from the session cookie, never from the form; `locale` is the page's language. */
export async function payWithWalletAction(token: string, attemptKey: string, locale: string, formData: FormData): Promise<HostedPaymentResult> {
  const principal = await requireSession('member');
  return payHostedWithWallet(
    getDb(),
    {
      token,
      attemptKey,
      memberId: principal.subjectId,
      paymentMethodId: String(formData.get('paymentMethodId') ?? ''),
      promotionCode: String(formData.get('promotionCode') ?? ''),
      quantity: formData.has('quantity') ? Number(formData.get('quantity')) : undefined,
    },
    customerText(await actionLocale(locale)),
  );
}
