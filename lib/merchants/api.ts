import { defineSessionOperation } from '../http/session-operation';
import { AccountSettingsBody } from './settings';
import { AccountSettingsResponse } from './schemas';

export const getSettingsOperation = defineSessionOperation({
  id: 'getMerchantSettings',
  method: 'GET',
  path: '/api/MerchantSettings',
  tag: 'Seller console',
  summary: "The seller account's settings: name, account type, support contacts, address, time zone",
  access: ['merchant'],
  permission: 'view',
  response: AccountSettingsResponse,
});

export const updateSettingsOperation = defineSessionOperation({
  id: 'updateMerchantSettings',
  method: 'PUT',
  path: '/api/MerchantSettings',
  tag: 'Seller console',
  summary: 'Change the fields sent (null clears an optional one); Owners and Admins',
  access: ['merchant'],
  permission: 'settings:write',
  body: AccountSettingsBody,
  response: AccountSettingsResponse,
  transaction: true,
});
