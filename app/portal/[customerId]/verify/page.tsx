import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { verifyPortalAction } from '../actions';

// The link's token must not leak to other sites through the Referer header.
export const metadata: Metadata = { title: 'Confirm it is you', referrer: 'no-referrer' };

/** The page a portal link opens: the customer types their own email to finish (mail scanners cannot). */
export default async function PortalVerifyPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { customerId } = await params;
  const token = (await searchParams).token;
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard title="This link is incomplete">
        <p className="text-sm text-slate-700">
          Open the link from your email again, or{' '}
          <Link href={`/portal/${customerId}`} className="font-medium text-brand-700 underline">
            ask for a new one
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm it is you" subtitle="Type the email address this link was sent to.">
      <ActionForm action={verifyPortalAction} className="space-y-4" ariaLabel="Confirm email">
        <input type="hidden" name="customerId" value={customerId} />
        <input type="hidden" name="token" value={token} />
        <TextField label="Your email" name="email" type="email" autoComplete="email" required />
        <SubmitButton pendingText="Checking…">Continue</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
