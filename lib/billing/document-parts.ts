import type { IssuedDetails, PostalAddress, TaxAmount } from '../db/schema';
import type { CustomerText } from '../i18n/customer-text';

/** One party of a document as printed: name, address lines, contact and tax id ("USt-IdNr.: DE123…"). */
export interface DocumentParty {
  name: string | null;
  email: string | null;
  addressLines: string[];
  /** Worded in the reader's language ("Tax ID: …"), or null without one. */
  taxId: string | null;
}

/** The live seller and customer rows, for documents numbered before their details were kept. */
interface LiveSeller {
  name: string;
  legalName: string | null;
  supportEmail: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  addressCity: string | null;
  addressRegion: string | null;
  addressPostalCode: string | null;
  addressCountry: string | null;
  taxId: string | null;
  invoiceFooter: string | null;
}

interface LiveCustomer {
  name: string | null;
  email: string | null;
  address: PostalAddress | null;
  taxId: string | null;
}

/** An address as printed, its country named in the reader's language. */
export function addressLines(address: PostalAddress | null, text: CustomerText): string[] {
  if (!address) return [];
  const locality = [address.postalCode, address.city].filter(Boolean).join(' ');
  const country = address.country ? text.country(address.country) : null;
  return [address.line1, address.line2, [locality, address.region].filter(Boolean).join(', '), country].filter((line): line is string => Boolean(line));
}

/**
 * Who issued a document and to whom: the details kept when it was numbered (a filed document
 * keeps them whatever changes later), else (documents older than migration 0046_tax) the live rows.
 */
export function documentParties(
  document: { sellerDetails: IssuedDetails | null; customerDetails: IssuedDetails | null },
  live: { seller: LiveSeller; customer: LiveCustomer },
  text: CustomerText,
): { seller: DocumentParty & { name: string; footer: string | null }; buyer: DocumentParty } {
  const { seller, customer } = live;
  const sellerDetails: IssuedDetails = document.sellerDetails ?? {
    name: seller.legalName || seller.name,
    email: seller.supportEmail,
    address: {
      line1: seller.addressLine1,
      line2: seller.addressLine2,
      city: seller.addressCity,
      region: seller.addressRegion,
      postalCode: seller.addressPostalCode,
      country: seller.addressCountry,
    },
    taxId: seller.taxId,
    footer: seller.invoiceFooter,
  };
  const buyerDetails: IssuedDetails = document.customerDetails ?? customer;
  const taxId = (value: string | null) => (value ? text.t('invoice.taxId', { taxId: value }) : null);
  return {
    seller: {
      name: sellerDetails.name || seller.name,
      email: sellerDetails.email,
      addressLines: addressLines(sellerDetails.address, text),
      taxId: taxId(sellerDetails.taxId),
      footer: sellerDetails.footer ?? null,
    },
    buyer: { name: buyerDetails.name, email: buyerDetails.email, addressLines: addressLines(buyerDetails.address, text), taxId: taxId(buyerDetails.taxId) },
  };
}

/** A document's taxes per rate, as billing records and credit notes keep them. */
export type DocumentTaxes = readonly TaxAmount[];

/** A tax line of a document's totals: "VAT 20% on €10.00" and its tax, "(included)" when inside the prices. */
export interface DocumentTaxLine {
  label: string;
  amount: string;
  inclusive: boolean;
}

/**
 * One line per rate, in the reader's words and digits ("MwSt 19 % auf 10,00 €"). `allIncluded`:
 * every rate reads "included" (a credit note's amount gives the tax back inside it).
 */
export function documentTaxLines(taxes: readonly TaxAmount[], money: (amount: number) => string, text: CustomerText, allIncluded = false): DocumentTaxLine[] {
  const percent = new Intl.NumberFormat(text.locale === 'en' ? 'en-US' : text.locale, { maximumFractionDigits: 4 });
  return taxes.map((rate) => {
    const name = rate.jurisdiction ? `${rate.displayName} (${rate.jurisdiction})` : rate.displayName;
    const tax = text.t('invoice.taxLine', { name, percentage: percent.format(Number(rate.percentage)), taxable: money(rate.taxableAmount) });
    const inclusive = allIncluded || rate.inclusive;
    return { label: inclusive ? text.t('invoice.taxIncluded', { tax }) : tax, amount: money(rate.amount), inclusive };
  });
}
