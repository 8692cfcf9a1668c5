import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { config } from '@/lib/config';
import { roleCan } from '@/lib/merchants/roles';
import { sellerStripeConnection } from '@/lib/processors/stripe-connections';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../../session';
import { connectStripeAction, disconnectStripeAction } from './actions';

export const metadata: Metadata = { title: 'Payments' };

/** Settings → Payments: which processor takes this seller's payments, and their own Stripe account (Owner and Admin connect it). */
export default async function PaymentsSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const { connected, disconnected } = await searchParams;
  const connection = await sellerStripeConnection(getDb(), merchant.id);
  const canEdit = roleCan(user.role, 'settings:write');
  const platform = config.processor.name === 'stripe' ? 'the platform’s Stripe account' : 'the sandbox (test payments, no real money)';
  return (
    <>
      <PageHeader
        title="Payments"
        description="Where your customers’ payments go. New payments use the account connected here; earlier ones stay with the account that took them."
      />
      {connected ? <Alert tone="success">Stripe account connected. New payments go to it.</Alert> : null}
      {disconnected ? <Alert tone="success">Stripe account disconnected. New payments go to {platform}.</Alert> : null}
      <Card title="Stripe" className="max-w-3xl">
        {connection ? (
          <div className="space-y-4">
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="text-slate-600">Account</dt>
              <dd className="flex flex-wrap items-center gap-2">
                <a href={connection.dashboardUrl} className="font-mono text-brand-700 hover:underline" target="_blank" rel="noreferrer">
                  {connection.accountReference}
                </a>
                {connection.accountName ? <span>{connection.accountName}</span> : null}
                {connection.mode === 'test' ? <Badge tone="blue">Test mode</Badge> : <Badge tone="green">Live</Badge>}
              </dd>
              <dt className="text-slate-600">Publishable key</dt>
              <dd className="font-mono break-all">{connection.publishableKey}</dd>
              <dt className="text-slate-600">Webhook endpoint</dt>
              <dd className="font-mono break-all">{connection.webhookUrl ?? '—'}</dd>
              <dt className="text-slate-600">Connected</dt>
              <dd>{connection.connectedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</dd>
            </dl>
            <p className="text-sm text-slate-600">
              The secret key is stored encrypted and never shown again. Stripe sends this account’s events to the endpoint above, registered when you connected.
            </p>
            {canEdit ? (
              <ActionForm action={disconnectStripeAction} ariaLabel="Disconnect Stripe">
                <ConfirmButton
                  question="Disconnect? New payments go to the platform; refunds of payments taken through this account must then be made in Stripe’s dashboard."
                  confirmLabel="Disconnect Stripe"
                >
                  Disconnect
                </ConfirmButton>
              </ActionForm>
            ) : null}
          </div>
        ) : (
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              No Stripe account of yours is connected: payments go to {platform}. Connect your own account with its API keys (Stripe dashboard → Developers →
              API keys); a test key (sk_test_…) takes test payments only.
            </p>
            {canEdit ? (
              <ActionForm action={connectStripeAction} className="space-y-4" ariaLabel="Connect Stripe">
                <TextField label="Secret or restricted key" name="secretKey" type="password" autoComplete="off" required placeholder="sk_test_… or rk_live_…" />
                <TextField
                  label="Publishable key"
                  name="publishableKey"
                  autoComplete="off"
                  required
                  placeholder="pk_test_…"
                  hint="Used by Stripe.js on your checkout pages."
                />
                <SubmitButton pendingText="Checking the key…">Connect Stripe</SubmitButton>
              </ActionForm>
            ) : (
              <p className="text-sm text-slate-600">Only Owners and Admins can connect a Stripe account.</p>
            )}
          </div>
        )}
      </Card>
    </>
  );
}
