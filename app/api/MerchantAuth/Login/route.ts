import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantLoginOperation } from '@/lib/auth/api';
import { signInMerchant } from '@/lib/auth/sign-in';

export const POST = sessionRoute(merchantLoginOperation, async ({ db, body, client }) => {
  const outcome = await signInMerchant(db, { ...body, client });
  if (outcome.kind === 'tokens') return outcome.tokens;
  return { twoFactorRequired: true as const, challengeToken: outcome.challengeToken, expiresIn: outcome.expiresIn };
});
