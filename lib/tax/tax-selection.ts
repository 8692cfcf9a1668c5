import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { AppliedTaxRate, PinnedTax, TaxExempt } from './calculate';

interface SelectedRateRow extends Record<string, unknown> {
  tax_exempt: TaxExempt;
  price_key: string | null;
  id: string | null;
  display_name: string;
  percentage: string;
  inclusive: boolean;
  country: string | null;
  jurisdiction: string | null;
}

/**
 * The tax rates the lines of these prices are charged at for this customer, to pin in a charge's
 * plan (docs/invoices.md, "Tax"): a price's own rates, else the seller's defaults; of those, the
 * active ones for any country and the ones for the country of the customer's billing address.
 * None for an exempt or reverse-charge customer. `null` stands for a line without a price (an ad
 * hoc amount). One query, with the customer's exemption and address read in it.
 *
 * A tax engine would answer here instead (given the customer's address and the lines), and its
 * answer would be pinned the same way.
 */
export function selectTax(db: Db, merchantId: string, customerId: string, priceIds: readonly (string | null)[]): Promise<PinnedTax> {
  return selectRates(
    db,
    merchantId,
    sql`select tax_exempt, upper(address->>'country') as country from customers where id = ${customerId} and merchant_id = ${merchantId}`,
    priceIds,
  );
}

/** The same for a buyer not known yet (the hosted checkout before payment): by the country they chose, if any. */
export function selectTaxForCountry(db: Db, merchantId: string, country: string | null, priceIds: readonly (string | null)[]): Promise<PinnedTax> {
  return selectRates(db, merchantId, sql`select 'none'::text as tax_exempt, ${country?.toUpperCase() ?? null}::text as country`, priceIds);
}

async function selectRates(db: Db, merchantId: string, buyer: SQL, priceIds: readonly (string | null)[]): Promise<PinnedTax> {
  const keys = [...new Set(priceIds.map((id) => id ?? ''))];
  const rows = await db.execute<SelectedRateRow>(sql`
    with buyer as (${buyer}),
    chosen as (
      select w.price_key, r.rate_id, r.position
      from unnest(${sql.param(keys)}::text[]) as w(price_key)
      join merchants m on m.id = ${merchantId}
      left join prices p on p.id = w.price_key and p.merchant_id = ${merchantId}
      cross join lateral unnest(case when cardinality(p.tax_rate_ids) > 0 then p.tax_rate_ids else m.default_tax_rate_ids end)
        with ordinality as r(rate_id, position)
    ),
    rates as (
      select c.price_key, c.position, t.id, t.display_name, t.percentage, t.inclusive, t.country, t.jurisdiction
      from chosen c join tax_rates t on t.id = c.rate_id and t.merchant_id = ${merchantId} and t.active
    )
    select b.tax_exempt, r.*
    from buyer b left join rates r on b.tax_exempt = 'none' and (r.country is null or r.country = b.country)
    order by r.price_key, r.position`);
  const ratesByPrice: Record<string, AppliedTaxRate[]> = {};
  for (const row of rows.rows) {
    if (row.id === null || row.price_key === null) continue;
    const rates = ratesByPrice[row.price_key] ?? [];
    ratesByPrice[row.price_key] = rates;
    rates.push({
      taxRateId: row.id,
      displayName: row.display_name,
      percentage: row.percentage,
      inclusive: row.inclusive,
      country: row.country,
      jurisdiction: row.jurisdiction,
    });
  }
  return { exempt: rows.rows[0]?.tax_exempt ?? 'none', ratesByPrice };
}
