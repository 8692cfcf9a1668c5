import { sessionRoute } from '@/lib/server/http/session-route';
import { getSettingsOperation, updateSettingsOperation } from '@/lib/merchants/api';
import { getAccountSettings, updateAccountSettings } from '@/lib/merchants/settings';

export const GET = sessionRoute(getSettingsOperation, ({ db, seller }) => getAccountSettings(db, seller.merchantId));
export const PUT = sessionRoute(updateSettingsOperation, ({ db, seller, body }) => updateAccountSettings(db, seller.merchantId, body));
