import { Secret, TOTP } from 'otpauth';

/** What an authenticator app shows for this secret, `stepsFromNow` 30-second periods from now. */
export const appCode = (secret: string, stepsFromNow = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsFromNow * 30_000 });

/**
 * The code of the step before the current one (the server accepts ±1 step), generated early in
 * a period: late in one, the period can end before the server checks it, which makes it two steps
 * old and refused.
 */
export async function previousStepCode(secret: string): Promise<string> {
  const intoPeriod = Date.now() % 30_000;
  if (intoPeriod > 20_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoPeriod + 100));
  return appCode(secret, -1);
}
