import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { NewPasswordField } from '@/components/console/new-password-field';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { acceptInvitationAction } from '../account-actions';

// The link's token must not leak to other sites through the Referer header.
export const metadata: Metadata = { title: 'Join a seller account', referrer: 'no-referrer' };

export default async function AcceptInvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = (await searchParams).token;
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard title="This invitation link is incomplete">
        <p className="text-sm text-slate-700">Open the link from your email again, or ask the person who invited you for a new one.</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Join the team"
      subtitle="Choose your name and a password to accept the invitation."
      footer={
        <>
          Already have a login?{' '}
          <Link className="font-medium text-brand-700 underline" href="/merchant/sign-in">
            Sign in
          </Link>
        </>
      }
    >
      <ActionForm action={acceptInvitationAction} className="space-y-4" ariaLabel="Accept the invitation">
        <input type="hidden" name="invitationToken" value={token} />
        <TextField label="Your name" name="name" autoComplete="name" required />
        <NewPasswordField />
        <SubmitButton pendingText="Joining…">Accept invitation</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
