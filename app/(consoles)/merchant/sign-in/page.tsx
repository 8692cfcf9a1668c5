import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signInAction } from '../actions';

export const metadata: Metadata = { title: 'Seller sign-in' };

export default async function MerchantSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reset } = await searchParams;
  return (
    <AuthCard
      title="Sign in to your seller account"
      subtitle="Manage your catalog, customers and API keys."
      footer={
        <>
          New to Paybase?{' '}
          <Link className="font-medium text-brand-700 underline" href="/merchant/sign-up">
            Create a seller account
          </Link>
        </>
      }
    >
      {reset ? <Alert tone="success">Your password was changed and every other sign-in was ended. Sign in with the new password.</Alert> : null}
      <ActionForm action={signInAction} className="space-y-4" ariaLabel="Seller sign-in">
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
      </ActionForm>
      <p className="mt-4 text-sm">
        <Link className="font-medium text-brand-700 underline" href="/merchant/forgot-password">
          Forgot password?
        </Link>
      </p>
    </AuthCard>
  );
}
