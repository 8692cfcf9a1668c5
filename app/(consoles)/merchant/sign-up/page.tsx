import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { NewPasswordField } from '@/components/console/new-password-field';
import { ActionForm } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signUpAction } from '../actions';

export const metadata: Metadata = { title: 'Create a seller account' };

export default function MerchantSignUpPage() {
  return (
    <AuthCard
      title="Create a seller account"
      subtitle="Start selling with payment links, checkout and subscriptions."
      footer={
        <>
          Already have an account?{' '}
          <Link className="font-medium text-brand-700 underline" href="/merchant/sign-in">
            Sign in
          </Link>
        </>
      }
    >
      <ActionForm action={signUpAction} className="space-y-4" ariaLabel="Create a seller account">
        <TextField label="Business or your name" name="name" autoComplete="organization" required />
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <NewPasswordField />
        <SelectField
          label="Account type"
          name="accountType"
          options={[
            { value: 'Business', label: 'Business — a company or organisation' },
            { value: 'Individual', label: 'Individual — selling as yourself' },
          ]}
        />
        <SubmitButton pendingText="Creating account…">Create account</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
