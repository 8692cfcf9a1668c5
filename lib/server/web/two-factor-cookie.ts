import { cookies } from 'next/headers';
import { config } from '../../config';
import { CONSOLE_PATH } from './session-cookies';

/**
 * Between the password and the code, the console keeps the sign-in challenge in an httpOnly
 * cookie (never in the page or the URL), for as long as the challenge lives.
 */
const NAME = 'pb_merchant_2fa';

export async function storeTwoFactorChallenge(challengeToken: string, expiresIn: number): Promise<void> {
  (await cookies()).set(NAME, challengeToken, { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: CONSOLE_PATH.merchant, maxAge: expiresIn });
}

export async function readTwoFactorChallenge(): Promise<string | undefined> {
  return (await cookies()).get(NAME)?.value || undefined;
}

export async function clearTwoFactorChallenge(): Promise<void> {
  (await cookies()).set(NAME, '', { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: CONSOLE_PATH.merchant, maxAge: 0 });
}
