import type { Metadata } from 'next';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { listCoupons } from '@/lib/promotions/coupons';
import { listPromotionCodes } from '@/lib/promotions/promotion-codes';
import { COUPON_DURATIONS } from '@/lib/promotions/schemas';
import { formatMoney } from '@/lib/money/format';
import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { currentSeller } from '../../session';
import { RoleGate } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';
import { createCouponAction, createPromotionCodeAction, setPromotionCodeActiveAction } from './actions';
import { ActiveToggleForm } from '@/components/console/active-toggle-form';

export const metadata: Metadata = { title: 'Promotion codes' };

type Coupon = Awaited<ReturnType<typeof listCoupons>>['data'][number];

const off = (coupon: Coupon) => (coupon.percentOff !== null ? `${coupon.percentOff}% off` : `${formatMoney(coupon.amountOff!, coupon.currency!)} off`);
const duration = (coupon: Coupon) =>
  coupon.duration === 'repeating' ? `for ${coupon.durationInMonths} months` : coupon.duration === 'forever' ? 'forever' : 'once';
const couponLabel = (coupon: Coupon) => `${coupon.name ? `${coupon.name} · ` : ''}${off(coupon)} ${duration(coupon)}`;

export default async function PromotionCodesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const query = await searchParams;
  const db = getDb();
  const codesPage = pageParam(query.codesPage);
  const couponsPage = pageParam(query.couponsPage);
  const [codes, coupons, allCoupons] = await Promise.all([
    listPromotionCodes(db, merchant.id, { page: codesPage, pageSize: 20, orderDirection: 'desc' }),
    listCoupons(db, merchant.id, { page: couponsPage, pageSize: 10, orderDirection: 'desc' }),
    listCoupons(db, merchant.id, { page: 1, pageSize: 200, orderDirection: 'desc' }),
  ]);
  const validCoupons = allCoupons.data.filter((c) => c.valid);

  return (
    <>
      <PageHeader
        title="Promotion codes"
        description="A coupon says what comes off (a percent or a fixed amount); its promotion codes are what customers type at checkout."
      />
      <div className="space-y-8">
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <Card title="New promotion code">
            <RoleGate role={user.role} permission="catalog:write">
              {validCoupons.length === 0 ? (
                <p className="text-sm text-slate-600">Create a coupon first.</p>
              ) : (
                <ActionForm action={createPromotionCodeAction} className="space-y-4" ariaLabel="New promotion code">
                  <SelectField label="Coupon" name="couponId" options={validCoupons.map((c) => ({ value: c.id, label: couponLabel(c) }))} />
                  <TextField
                    label="Code"
                    name="code"
                    required
                    maxLength={64}
                    placeholder="SUMMER25"
                    hint="What customers type; not case-sensitive."
                    className="[&_input]:uppercase"
                  />
                  <TextField label="Maximum redemptions" name="maxRedemptions" type="number" min={1} hint="Optional." />
                  <TextField label="Expires at (UTC)" name="expiresAt" type="datetime-local" hint="Optional." />
                  <SubmitButton pendingText="Creating…">Create code</SubmitButton>
                </ActionForm>
              )}
            </RoleGate>
          </Card>
          <Card title="New coupon">
            <RoleGate role={user.role} permission="catalog:write">
              <ActionForm action={createCouponAction} className="space-y-4" ariaLabel="New coupon">
                <TextField label="Coupon name" name="name" maxLength={250} hint="Optional, for you." />
                <SelectField
                  label="Discount"
                  name="kind"
                  options={[
                    { value: 'percent', label: 'Percent off' },
                    { value: 'amount', label: 'Fixed amount off' },
                  ]}
                />
                <TextField label="Percent off" name="percentOff" type="number" min={1} max={100} hint="For a percent discount." />
                <div className="grid grid-cols-[minmax(0,1fr)_100px] gap-3">
                  <TextField label="Amount off" name="amountOff" inputMode="decimal" placeholder="5.00" hint="For a fixed discount." />
                  <TextField label="Currency" name="currency" defaultValue="USD" maxLength={3} className="[&_input]:uppercase" />
                </div>
                <div className="grid grid-cols-2 gap-3">
                  <SelectField label="Duration" name="duration" options={COUPON_DURATIONS} hint="For subscriptions." />
                  <TextField label="Months" name="durationInMonths" type="number" min={1} max={120} hint="If repeating." />
                </div>
                <TextField label="Maximum redemptions" name="maxRedemptions" type="number" min={1} hint="Optional, across all its codes." />
                <TextField label="Redeem by (UTC)" name="redeemBy" type="datetime-local" hint="Optional." />
                <SubmitButton pendingText="Creating…">Create coupon</SubmitButton>
              </ActionForm>
            </RoleGate>
          </Card>
        </div>
        <div className="min-w-0 space-y-8">
          <section aria-labelledby="codes-heading">
            <h2 id="codes-heading" className="mb-3 text-lg font-semibold">
              Promotion codes
            </h2>
            {codes.totalCount === 0 ? (
              <EmptyState title="No promotion codes yet">Create a coupon, then a code for it.</EmptyState>
            ) : (
              <>
                <Table caption="Promotion codes" head={['Code', 'Coupon', 'Status', 'Redeemed', 'Expires', '']}>
                  {codes.data.map((code) => (
                    <tr key={code.id}>
                      <Cell className="font-mono font-medium">{code.code}</Cell>
                      <Cell>{couponLabel(code.coupon)}</Cell>
                      <Cell>{code.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</Cell>
                      <Cell className="whitespace-nowrap">
                        {code.timesRedeemed}
                        {code.maxRedemptions ? ` of ${code.maxRedemptions}` : ''}
                      </Cell>
                      <Cell className="whitespace-nowrap">{formatConsoleDateTime(code.expiresAt, merchant.timeZone)}</Cell>
                      <Cell className="text-right">
                        {roleCan(user.role, 'catalog:write') ? (
                          <ActiveToggleForm
                            action={setPromotionCodeActiveAction}
                            idField="promotionCodeId"
                            id={code.id}
                            active={code.active}
                            question={`Deactivate ${code.code}?`}
                            ariaLabel={`${code.active ? 'Deactivate' : 'Activate'} ${code.code}`}
                          />
                        ) : null}
                      </Cell>
                    </tr>
                  ))}
                </Table>
                <Pagination
                  {...codes}
                  basePath="/merchant/promotion-codes"
                  query={{ couponsPage: String(couponsPage) }}
                  param="codesPage"
                  label="Promotion code pages"
                />
              </>
            )}
          </section>
          <section aria-labelledby="coupons-heading">
            <h2 id="coupons-heading" className="mb-3 text-lg font-semibold">
              Coupons
            </h2>
            {coupons.totalCount === 0 ? (
              <EmptyState title="No coupons yet">Create one with the form.</EmptyState>
            ) : (
              <>
                <Table caption="Coupons" head={['Coupon', 'Applies', 'Redeemed', 'Redeem by', 'Status']}>
                  {coupons.data.map((coupon) => (
                    <tr key={coupon.id}>
                      <Cell>
                        <span className="font-medium">{coupon.name ?? off(coupon)}</span>
                        <span className="block font-mono text-xs text-slate-600">{coupon.id}</span>
                      </Cell>
                      <Cell>
                        {off(coupon)} {duration(coupon)}
                      </Cell>
                      <Cell className="whitespace-nowrap">
                        {coupon.timesRedeemed}
                        {coupon.maxRedemptions ? ` of ${coupon.maxRedemptions}` : ''}
                      </Cell>
                      <Cell className="whitespace-nowrap">{formatConsoleDateTime(coupon.redeemBy, merchant.timeZone)}</Cell>
                      <Cell>{coupon.valid ? <Badge tone="green">Valid</Badge> : <Badge>Spent or expired</Badge>}</Cell>
                    </tr>
                  ))}
                </Table>
                <Pagination
                  {...coupons}
                  basePath="/merchant/promotion-codes"
                  query={{ codesPage: String(codesPage) }}
                  param="couponsPage"
                  label="Coupon pages"
                />
              </>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
