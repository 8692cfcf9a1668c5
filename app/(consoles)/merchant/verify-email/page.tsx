import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { verifyEmailAction } from '../account-actions';

// The link's token must not leak to other sites through the Referer header.
export const metadata: Metadata = { title: 'Confirm your email', referrer: 'no-referrer' };

/** Confirming takes a click (a POST): mail scanners open links and would spend the token. */
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = (await searchParams).token;
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard title="This verification link is incomplete">
        <p className="text-sm text-slate-700">Open the link from your email again, or send a new one from the banner in your console.</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your email address" subtitle="One click and your seller account's email is verified.">
      <ActionForm action={verifyEmailAction} className="space-y-4" ariaLabel="Confirm your email address">
        <input type="hidden" name="verificationToken" value={token} />
        <SubmitButton pendingText="Confirming…">Confirm my email</SubmitButton>
      </ActionForm>
      <p className="mt-4 text-sm text-slate-600">
        <Link href="/merchant" className="font-medium text-brand-700 underline">
          Go to the console
        </Link>
      </p>
    </AuthCard>
  );
}
