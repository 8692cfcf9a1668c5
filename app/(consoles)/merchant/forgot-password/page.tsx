import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { forgotPasswordAction } from '../account-actions';

export const metadata: Metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return (
    <AuthCard
      title="Reset your password"
      subtitle="We will email you a link to choose a new password."
      footer={
        <Link className="font-medium text-brand-700 underline" href="/merchant/sign-in">
          Back to sign-in
        </Link>
      }
    >
      <ActionForm action={forgotPasswordAction} className="space-y-4" ariaLabel="Reset your password">
        <TextField label="Email" name="email" type="email" autoComplete="email" required />
        <SubmitButton pendingText="Sending…">Email me a reset link</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
