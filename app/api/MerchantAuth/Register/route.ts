import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantRegisterOperation } from '@/lib/auth/api';
import { registerMerchant } from '@/lib/auth/sign-in';
import { toMerchantResponse } from '@/lib/merchants/merchants';

export const POST = sessionRoute(merchantRegisterOperation, async ({ db, body, client }) => {
  const { merchant, tokens } = await registerMerchant(db, { ...body, client });
  return { merchant: toMerchantResponse(merchant), ...tokens };
});
