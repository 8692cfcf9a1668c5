import type { Metadata } from 'next';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signInAction } from '../actions';

export const metadata: Metadata = { title: 'Platform admin sign-in' };

export default function AdminSignInPage() {
  return (
    <AuthCard title="Platform admin" subtitle="Sign in to run the platform.">
      <ActionForm action={signInAction} className="space-y-4" ariaLabel="Admin sign-in">
        <TextField label="Name" name="name" autoComplete="username" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
