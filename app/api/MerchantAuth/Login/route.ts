import { sessionRoute } from '@/lib/http/session-route';
import { merchantLoginOperation } from '@/lib/auth/api';
import { signInMerchant } from '@/lib/auth/sign-in';

export const POST = sessionRoute(merchantLoginOperation, ({ db, body, client }) => signInMerchant(db, { ...body, client }));
