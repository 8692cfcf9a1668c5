/**
 * ISO 4217 active currency codes and their minor-unit exponents. Amounts are always integers
 * in the minor unit: 1050 USD is $10.50, 1050 JPY is ¥1,050, 1050 KWD is 1.050 KD.
 */
const ACTIVE_CODES = `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP
BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN
PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS
TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG`
  .split(/\s+/)
  .filter(Boolean);

const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
const THREE_DECIMAL = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));

const KNOWN = new Set(ACTIVE_CODES);

/** Normalises to upper case; returns undefined for anything that is not an active ISO 4217 code. */
export function normalizeCurrency(code: string): string | undefined {
  const upper = code.toUpperCase();
  return KNOWN.has(upper) ? upper : undefined;
}

export function isKnownCurrency(code: string): boolean {
  return KNOWN.has(code.toUpperCase());
}

/** Number of decimal digits of the currency's minor unit. */
export function currencyExponent(code: string): 0 | 2 | 3 {
  const upper = code.toUpperCase();
  if (ZERO_DECIMAL.has(upper)) return 0;
  if (THREE_DECIMAL.has(upper)) return 3;
  return 2;
}

export const SUPPORTED_CURRENCIES: readonly string[] = ACTIVE_CODES;
