import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { pendingTwoFactorSetup, unusedRecoveryCodeCount } from '@/lib/auth/two-factor';
import { roleCan } from '@/lib/merchants/roles';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { RecoveryCodesForm } from '@/components/console/recovery-codes-form';
import { ConfirmTwoFactorForm, TwoFactorCard } from '@/components/console/two-factor-card';
import { currentSeller } from '../../session';
import { beginTwoFactorAction, confirmTwoFactorAction, disableTwoFactorAction, regenerateRecoveryCodesAction, teamTwoFactorAction } from './actions';

export const metadata: Metadata = { title: 'Security' };

const CodeField = () => (
  <TextField label="Code from your app" name="code" autoComplete="one-time-code" required maxLength={40} hint="Or one of your recovery codes." />
);

export default async function SecurityPage() {
  const { merchant, user } = await currentSeller('security');
  const enabled = user.twoFactorEnabledAt !== null;
  const pending = await pendingTwoFactorSetup(user);
  const remaining = enabled ? await unusedRecoveryCodeCount(getDb(), user.id) : 0;
  return (
    <>
      <PageHeader title="Security" description="How you sign in to this seller account." />
      {merchant.requireTwoFactor && !enabled ? (
        <Alert tone="warning">Your account requires two-factor sign-in. Set up an authenticator app to open the rest of the console.</Alert>
      ) : null}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <TwoFactorCard status={enabled ? 'on' : pending ? 'setting-up' : 'off'}>
          {enabled ? (
            <div className="space-y-6">
              <p className="text-sm text-slate-700">
                Signing in asks for a code from your authenticator app after your password. On since{' '}
                {formatConsoleDate(user.twoFactorEnabledAt, merchant.timeZone)}; <span data-testid="recovery-codes-left">{remaining}</span> unused recovery
                codes.
              </p>
              <RecoveryCodesForm action={regenerateRecoveryCodesAction} ariaLabel="New recovery codes">
                <p className="text-sm font-medium text-slate-800">New recovery codes (the old ones stop working)</p>
                <CodeField />
                <SubmitButton variant="secondary" pendingText="Creating…">
                  Create new recovery codes
                </SubmitButton>
              </RecoveryCodesForm>
              {merchant.requireTwoFactor ? null : (
                <ActionForm action={disableTwoFactorAction} className="space-y-4" ariaLabel="Turn off two-factor">
                  <p className="text-sm font-medium text-slate-800">Turn off two-factor sign-in</p>
                  <CodeField />
                  <SubmitButton variant="danger" pendingText="Turning off…">
                    Turn off
                  </SubmitButton>
                </ActionForm>
              )}
            </div>
          ) : pending ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-700">
                Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…), then type the 6-digit code it shows.
              </p>
              <div
                className="h-48 w-48 rounded border border-slate-200 bg-white p-2"
                aria-label="QR code for your authenticator app"
                role="img"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG made on the server by the qrcode library from our own otpauth:// URI, no user input.
                dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
              />
              <p className="text-sm text-slate-700">
                Cannot scan? Enter this key:{' '}
                <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm break-all" data-testid="totp-secret">
                  {pending.secret}
                </code>
              </p>
              <ConfirmTwoFactorForm action={confirmTwoFactorAction}>
                <TextField label="Code from your app" name="code" autoComplete="one-time-code" inputMode="numeric" required maxLength={6} />
                <SubmitButton pendingText="Checking…">Turn on two-factor</SubmitButton>
              </ConfirmTwoFactorForm>
            </div>
          ) : (
            <ActionForm action={beginTwoFactorAction} className="space-y-4" ariaLabel="Set up two-factor">
              <p className="text-sm text-slate-700">Protect your sign-in with a code from an authenticator app on your phone, in addition to your password.</p>
              <SubmitButton pendingText="Preparing…">Set up two-factor</SubmitButton>
            </ActionForm>
          )}
        </TwoFactorCard>
        {roleCan(user.role, 'security:team') ? (
          <Card title="Team requirement" actions={merchant.requireTwoFactor ? <Badge tone="green">Required</Badge> : <Badge tone="gray">Optional</Badge>}>
            <ActionForm action={teamTwoFactorAction} className="space-y-4" ariaLabel="Team two-factor requirement">
              <p className="text-sm text-slate-700">
                {merchant.requireTwoFactor
                  ? 'Everyone must sign in with two-factor. Members without it can only set it up until they do; password-only API sign-ins are refused.'
                  : 'Require every team member to sign in with two-factor. You need it on yourself first.'}
              </p>
              <input type="hidden" name="required" value={merchant.requireTwoFactor ? 'false' : 'true'} />
              <SubmitButton variant={merchant.requireTwoFactor ? 'secondary' : 'primary'} pendingText="Saving…">
                {merchant.requireTwoFactor ? 'Stop requiring two-factor' : 'Require two-factor for everyone'}
              </SubmitButton>
            </ActionForm>
          </Card>
        ) : null}
      </div>
    </>
  );
}
