import type { PriceRow } from '../catalog/prices';
import type { CustomerText } from '../i18n/customer-text';
import { formatMinorDecimal } from '../money/format-decimal';

/**
 * A subscription price in the customer's words (the portal, the hosted checkout): "$19.99/month",
 * or how a metered price bills its feature's usage in arrears ("$0.0004 per tokens unit, billed in
 * arrears"; a tiered one names its feature, the tiers are on the invoice).
 */
export function customerPriceLabel(
  price: Pick<PriceRow, 'amount' | 'currency' | 'interval' | 'intervalCount' | 'usageType' | 'feature' | 'unitAmountDecimal' | 'tiers' | 'packageSize'>,
  text: CustomerText,
): string {
  if (price.usageType !== 'metered') return text.recurring(price.amount, price.currency, price.interval, price.intervalCount);
  const feature = price.feature ?? '';
  if (price.tiers && price.tiers.length > 0) return text.t('common.meteredTiered', { feature });
  const locale = text.locale === 'en' ? 'en-US' : text.locale;
  const rate = price.unitAmountDecimal ? formatMinorDecimal(price.unitAmountDecimal, price.currency, locale) : text.money(price.amount, price.currency);
  if (price.packageSize && price.packageSize > 1) {
    return text.t('common.meteredPackage', { rate, feature, size: new Intl.NumberFormat(locale).format(price.packageSize) });
  }
  return text.t('common.meteredUnit', { rate, feature });
}
