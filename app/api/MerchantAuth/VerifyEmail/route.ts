import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantVerifyEmailOperation } from '@/lib/auth/api';
import { verifySellerEmail } from '@/lib/auth/email-verification';

export const POST = sessionRoute(merchantVerifyEmailOperation, ({ db, body, client }) => verifySellerEmail(db, { ...body, client }));
