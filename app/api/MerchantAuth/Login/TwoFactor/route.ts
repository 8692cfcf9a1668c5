import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantLoginTwoFactorOperation } from '@/lib/auth/api';
import { completeTwoFactorSignIn } from '@/lib/auth/two-factor';

export const POST = sessionRoute(merchantLoginTwoFactorOperation, ({ db, body, client }) => completeTwoFactorSignIn(db, { ...body, client }));
