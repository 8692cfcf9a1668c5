import { ActionForm } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { resendVerificationAction } from '../account-actions';

/** Shown on every console page until the signed-in user's email is verified (docs/decisions.md). */
export function VerifyEmailBanner({ email }: { email: string }) {
  return (
    <section
      aria-label="Verify your email"
      data-testid="verify-email-banner"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="font-semibold">Confirm your email address</p>
      <p className="mt-1">
        We sent a link to <strong>{email}</strong>. Until you confirm it you cannot invite team members; everything else works.
      </p>
      <ActionForm action={resendVerificationAction} className="mt-2">
        <SubmitButton variant="secondary" size="sm" pendingText="Sending…">
          Resend the link
        </SubmitButton>
      </ActionForm>
    </section>
  );
}
