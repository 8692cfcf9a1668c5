import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signInAction } from '../actions';

export const metadata: Metadata = { title: 'Seller sign-in' };

export default function MerchantSignInPage() {
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
      <ActionForm action={signInAction} className="space-y-4" ariaLabel="Seller sign-in">
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <SelectField
          label="Account type"
          name="accountType"
          options={[
            { value: 'Business', label: 'Business' },
            { value: 'Individual', label: 'Individual' },
          ]}
        />
        <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
