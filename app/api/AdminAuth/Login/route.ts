import { sessionRoute } from '@/lib/server/http/session-route';
import { adminLoginOperation } from '@/lib/auth/api';
import { signInAdmin } from '@/lib/auth/sign-in';

export const POST = sessionRoute(adminLoginOperation, ({ db, body, client }) => signInAdmin(db, { ...body, client }));
