import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { twoFactorSignInAction } from '../../actions';

export const metadata: Metadata = { title: 'Two-factor sign-in' };

export default function TwoFactorSignInPage() {
  return (
    <AuthCard
      title="Enter your sign-in code"
      subtitle="Open your authenticator app and type the 6-digit code for Paybase. Lost your phone? Use one of your recovery codes."
      footer={
        <Link className="font-medium text-brand-700 underline" href="/merchant/sign-in">
          Start again
        </Link>
      }
    >
      <ActionForm action={twoFactorSignInAction} className="space-y-4" ariaLabel="Two-factor sign-in">
        <TextField label="Code" name="code" autoComplete="one-time-code" inputMode="text" autoFocus required maxLength={40} />
        <SubmitButton pendingText="Checking…">Verify and sign in</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
