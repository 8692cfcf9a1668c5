import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { NewPasswordField } from '@/components/console/new-password-field';
import { ActionForm } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { resetPasswordAction } from '../account-actions';

// The link's token must not leak to other sites through the Referer header.
export const metadata: Metadata = { title: 'Choose a new password', referrer: 'no-referrer' };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = (await searchParams).token;
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard title="This reset link is incomplete">
        <p className="text-sm text-slate-700">
          Open the link from your email again, or{' '}
          <Link href="/merchant/forgot-password" className="font-medium text-brand-700 underline">
            ask for a new one
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle="Every device signed in to your account will be signed out.">
      <ActionForm action={resetPasswordAction} className="space-y-4" ariaLabel="Choose a new password">
        <input type="hidden" name="resetToken" value={token} />
        <NewPasswordField label="New password" />
        <SubmitButton pendingText="Saving…">Set new password</SubmitButton>
      </ActionForm>
      <p className="mt-4 text-sm text-slate-600">
        Link expired or already used?{' '}
        <Link href="/merchant/forgot-password" className="font-medium text-brand-700 underline">
          Get a new one
        </Link>
        .
      </p>
    </AuthCard>
  );
}
