import type { Metadata } from 'next';
import Link from 'next/link';
import { config } from '@/lib/config';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { requestLinkAction } from '../actions';

export const metadata: Metadata = { title: 'Wallet sign-in' };
// Whether to point at the dev mailbox is decided by APP_ENV at run time, not build time.
export const dynamic = 'force-dynamic';

export default async function MemberSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeWalletReturnPath((await searchParams).next);
  return (
    <AuthCard
      title="Sign in to your wallet"
      subtitle={next ? 'We email you a link; it brings you back to your checkout.' : 'We email you a link; no password needed.'}
      footer={
        config.isProduction ? undefined : (
          <>
            Running locally? Sign-in mail lands in the{' '}
            <Link className="font-medium text-brand-700 underline" href="/dev/mailbox">
              dev mailbox
            </Link>
            .
          </>
        )
      }
    >
      <ActionForm action={requestLinkAction} className="space-y-4" ariaLabel="Wallet sign-in">
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <SubmitButton pendingText="Sending…">Email me a sign-in link</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
