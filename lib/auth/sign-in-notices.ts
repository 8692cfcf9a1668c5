import type { Db } from '../db/client';
import { config } from '../config';
import { log } from '../log';
import { sendEmail } from '../email/send-email';
import type { FailureNotice } from './sign-in-throttle';

/** What failed: a password, or a second-factor code after a right password (someone has the password). */
export type FailedStep = 'password' | 'two_factor';

const FORGOT_PASSWORD_PATH = '/merchant/forgot-password';

function noticeText(input: { who: string; step: FailedStep; count: number; windowMinutes: number; address: string; advice: string }): string {
  const what = input.step === 'two_factor' ? 'wrong two-factor codes entered after the right password' : 'failed sign-in attempts';
  return [
    `There were ${input.count} ${what} for ${input.who} in the last ${input.windowMinutes} minutes, the latest from the address ${input.address}.`,
    '',
    input.step === 'two_factor'
      ? 'Someone who knows the password tried to get past two-factor sign-in. Change the password now.'
      : 'If this was you, you can ignore this email.',
    '',
    `The account is not locked: an address that keeps failing is paused for ${input.windowMinutes} minutes, and sign-in from other addresses goes on as usual.`,
    input.advice,
  ].join('\n');
}

/** The notice to a seller user of failed sign-ins to its login, mailed in its own transaction. */
export function sellerFailureNotice(db: Db, user: { email: string }, step: FailedStep): FailureNotice {
  return (failures) =>
    db.transaction((tx) =>
      sendEmail(tx, {
        to: user.email,
        subject: step === 'two_factor' ? 'Someone has your Paybase password' : 'Failed sign-ins to your Paybase account',
        category: 'merchant.sign_in_failures',
        text: noticeText({
          ...failures,
          who: `your Paybase seller login (${user.email})`,
          step,
          advice: `If it was not you, choose a new password (${config.publicUrl}${FORGOT_PASSWORD_PATH}) and turn on two-factor sign-in under Security.`,
        }),
      }).then(() => undefined),
    );
}

/**
 * The notice of failed sign-ins to a platform admin: mailed to `ADMIN_EMAIL` when set (admins
 * have no address of their own), and always a warning in the log (without the name tried).
 */
export function adminFailureNotice(db: Db, admin: { name: string }): FailureNotice {
  return async (failures) => {
    log.warn({ failures: failures.count, windowMinutes: failures.windowMinutes }, 'repeated failed sign-ins to a platform admin');
    const to = config.auth.adminEmail;
    if (!to) return;
    await db.transaction((tx) =>
      sendEmail(tx, {
        to,
        subject: 'Failed sign-ins to a Paybase platform admin',
        category: 'admin.sign_in_failures',
        text: noticeText({
          ...failures,
          who: `the platform admin “${admin.name}”`,
          step: 'password',
          advice: 'If it was not you, change the admin password and check the audit log (/admin/audit-log).',
        }),
      }),
    );
  };
}
