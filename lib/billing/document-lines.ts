import type { BillingLineItem } from '../db/schema';
import type { CustomerText } from '../i18n/customer-text';
import { formatMoney } from '../money/format';
import { formatMinorDecimal } from '../money/format-decimal';

/** One line of an invoice as a customer reads it: worded in their language, with how a usage line was priced. */
export interface DocumentLine {
  kind: string;
  description: string;
  quantity: number;
  /** The quantity in the reader's digits ("1,234", "1.234"). */
  quantityLabel: string;
  amount: string;
  /** Usage lines: the period whose usage is billed, then the unit price or each tier's share. */
  details: string[];
}

/*
 * Lines keep the English description they were written with (lib/subscriptions/billing.ts,
 * usage-billing.ts, lib/billing/line-items.ts); the customer's documents reword the known ones.
 */
const PERIOD_DESCRIPTION = /^(.*) — subscription period (\d+)$/;
const USAGE_DESCRIPTION = /^(.*) — (\S+) usage$/;
const USAGE_CREDIT = /^Credits applied: (\d+) /;

/** The lines of a billing record or upcoming invoice for the hosted invoice, its PDF, the receipt and the portal. */
export function documentLines(
  lines: readonly BillingLineItem[],
  currency: string,
  text: CustomerText,
  currencyDisplay: 'symbol' | 'code' = 'symbol',
): DocumentLine[] {
  const { t } = text;
  const moneyLocale = text.locale === 'en' ? 'en-US' : text.locale;
  const money = (amount: number) => formatMoney(amount, currency, moneyLocale, currencyDisplay);
  const exact = (decimal: string) => formatMinorDecimal(decimal, currency, moneyLocale, currencyDisplay);
  const count = new Intl.NumberFormat(moneyLocale);
  return lines.map((line) => {
    const details: string[] = [];
    let description = line.description;
    const period = PERIOD_DESCRIPTION.exec(line.description);
    if (line.kind === 'plan' && period) description = t('portal.periodDescription', { product: period[1]!, period: Number(period[2]) });
    if (line.kind === 'usage' && line.feature) {
      const usage = USAGE_DESCRIPTION.exec(line.description);
      if (usage) description = t('invoice.usageDescription', { product: usage[1]!, feature: line.feature });
      if (line.periodStart && line.periodEnd) details.push(t('invoice.usagePeriod', { start: text.date(line.periodStart), end: text.date(line.periodEnd) }));
      if (line.tiers && line.tiers.length > 0) {
        for (const tier of line.tiers) {
          const values = { tier: tier.tier, quantity: count.format(tier.quantity), unit: exact(tier.unitAmountDecimal), amount: exact(tier.amountDecimal) };
          details.push(tier.flatAmount ? t('invoice.usageTierFlat', { ...values, flat: money(tier.flatAmount) }) : t('invoice.usageTier', values));
        }
      } else if (line.unitAmountDecimal !== undefined || line.unitAmount > 0) {
        const unit = line.unitAmountDecimal !== undefined ? exact(line.unitAmountDecimal) : money(line.unitAmount);
        details.push(t('invoice.usageUnits', { quantity: count.format(line.quantity), unit }));
      }
    }
    if (line.kind === 'credit') {
      const credited = USAGE_CREDIT.exec(line.description);
      if (line.feature && credited) description = t('invoice.usageCredit', { units: count.format(Number(credited[1])), feature: line.feature });
      else if (line.description === 'Account credit applied') description = t('invoice.accountCredit');
    }
    return { kind: line.kind, description, quantity: line.quantity, quantityLabel: count.format(line.quantity), amount: money(line.amount), details };
  });
}
