import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { verifyLinkAction } from '../actions';

// The link's token must not leak to other sites through the Referer header.
export const metadata: Metadata = { title: 'Confirm wallet sign-in', referrer: 'no-referrer' };

/**
 * The page a sign-in link opens. Signing in takes a click (a POST), because mail scanners open
 * links on their own and would otherwise spend the single-use token.
 */
export default async function MemberVerifyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const token = query.token;
  const next = safeWalletReturnPath(query.next);
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard title="This sign-in link is incomplete">
        <p className="text-sm text-slate-700">
          Open the link from your email again, or{' '}
          <Link href="/member/sign-in" className="font-medium text-brand-700 underline">
            ask for a new one
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign in to your wallet" subtitle="Confirm it is you to finish signing in.">
      <ActionForm action={verifyLinkAction} className="space-y-4" ariaLabel="Confirm sign-in">
        <input type="hidden" name="loginToken" value={token} />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <SubmitButton pendingText="Signing in…">Sign in to my wallet</SubmitButton>
      </ActionForm>
      <p className="mt-4 text-sm text-slate-600">
        Link expired or already used?{' '}
        <Link href="/member/sign-in" className="font-medium text-brand-700 underline">
          Get a new one
        </Link>
        .
      </p>
    </AuthCard>
  );
}
