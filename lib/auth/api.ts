import { z } from 'zod';
import type { Audience } from '../db/schema';
import { defineSessionOperation } from '../http/session-operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import { AUTH_FAMILY } from './families';
import {
  AdminLoginBody,
  ApiKeyResponse,
  CreateApiKeyBody,
  CreatedApiKeyResponse,
  LogoutBody,
  MemberLinkSentResponse,
  MemberLoginBody,
  MemberVerifyBody,
  MerchantLoginBody,
  MerchantRegisterBody,
  MerchantRegisteredResponse,
  RefreshBody,
  LinkSentResponse,
  RecoveryCodesResponse,
  TwoFactorCodeBody,
  TwoFactorSetupResponse,
  LoginTwoFactorBody,
  TwoFactorChallengeResponse,
  PasswordResetBody,
  PasswordResetConfirmBody,
  TokenPairResponse,
  VerifyEmailBody,
  SuspensionBody,
} from './schemas';
import { IdentityResponse, MerchantResponse, SellerUserResponse } from '../merchants/schemas';

export const adminLoginOperation = defineSessionOperation({
  id: 'adminLogin',
  method: 'POST',
  path: '/api/AdminAuth/Login',
  tag: 'Sign-in',
  summary: 'Platform admin sign-in',
  access: 'public',
  body: AdminLoginBody,
  response: TokenPairResponse,
});

export const merchantLoginOperation = defineSessionOperation({
  id: 'merchantLogin',
  method: 'POST',
  path: '/api/MerchantAuth/Login',
  tag: 'Sign-in',
  summary: 'Seller sign-in',
  description:
    'Without two-factor the answer is the token pair. With two-factor on, the answer is `{ twoFactorRequired: true, challengeToken, expiresIn }` and the token pair comes from `Login/TwoFactor`.',
  access: 'public',
  body: MerchantLoginBody,
  response: z.union([TokenPairResponse, TwoFactorChallengeResponse]),
});

export const merchantLoginTwoFactorOperation = defineSessionOperation({
  id: 'merchantLoginTwoFactor',
  method: 'POST',
  path: '/api/MerchantAuth/Login/TwoFactor',
  tag: 'Sign-in',
  summary: 'Seller sign-in, second step: the Login challenge and an authenticator or recovery code give the token pair',
  access: 'public',
  body: LoginTwoFactorBody,
  response: TokenPairResponse,
});

export const merchantRegisterOperation = defineSessionOperation({
  id: 'merchantRegister',
  method: 'POST',
  path: '/api/MerchantAuth/Register',
  tag: 'Sign-in',
  summary: 'Seller sign-up (signs the new seller in)',
  access: 'public',
  body: MerchantRegisterBody,
  response: MerchantRegisteredResponse,
  successStatus: 201,
  answers: { 409: 'CONFLICT: an account with this email exists.' },
});

export const merchantPasswordResetOperation = defineSessionOperation({
  id: 'merchantPasswordReset',
  method: 'POST',
  path: '/api/MerchantAuth/PasswordReset',
  tag: 'Sign-in',
  summary: 'Mail a password-reset link (same answer whether or not the address has an account)',
  access: 'public',
  body: PasswordResetBody,
  response: LinkSentResponse,
  successStatus: 202,
});

export const merchantPasswordResetConfirmOperation = defineSessionOperation({
  id: 'merchantPasswordResetConfirm',
  method: 'POST',
  path: '/api/MerchantAuth/PasswordReset/Confirm',
  tag: 'Sign-in',
  summary: "Set a new password with a reset link's token (ends every sign-in of that user)",
  access: 'public',
  body: PasswordResetConfirmBody,
  successStatus: 204,
});

export const merchantVerifyEmailOperation = defineSessionOperation({
  id: 'merchantVerifyEmail',
  method: 'POST',
  path: '/api/MerchantAuth/VerifyEmail',
  tag: 'Sign-in',
  summary: "Confirm a seller user's email with the emailed link's token",
  access: 'public',
  body: VerifyEmailBody,
  response: SellerUserResponse,
});

export const merchantResendVerificationOperation = defineSessionOperation({
  id: 'merchantResendVerification',
  method: 'POST',
  path: '/api/MerchantAuth/VerifyEmail/Resend',
  tag: 'Sign-in',
  summary: 'Mail a new email-verification link to the signed-in seller user',
  access: ['merchant'],
  response: LinkSentResponse,
  successStatus: 202,
  answers: { 409: 'CONFLICT: the email address is already verified.' },
});

export const twoFactorSetupOperation = defineSessionOperation({
  id: 'merchantTwoFactorSetup',
  method: 'POST',
  path: '/api/MerchantTwoFactor/Setup',
  tag: 'Sign-in',
  summary: 'Start setting up an authenticator app (a new pending secret and its QR code)',
  access: ['merchant'],
  permission: 'security',
  response: TwoFactorSetupResponse,
  answers: { 409: 'CONFLICT: two-factor sign-in is already on.' },
});

export const twoFactorConfirmOperation = defineSessionOperation({
  id: 'merchantTwoFactorConfirm',
  method: 'POST',
  path: '/api/MerchantTwoFactor/Confirm',
  tag: 'Sign-in',
  summary: 'Turn two-factor on with a code from the app; answers the recovery codes, once',
  access: ['merchant'],
  permission: 'security',
  body: TwoFactorCodeBody,
  response: RecoveryCodesResponse,
  answers: { 409: 'CONFLICT: two-factor sign-in is already on; INVALID_STATE: no setup is waiting to be confirmed.' },
});

export const twoFactorRecoveryCodesOperation = defineSessionOperation({
  id: 'merchantTwoFactorRecoveryCodes',
  method: 'POST',
  path: '/api/MerchantTwoFactor/RecoveryCodes',
  tag: 'Sign-in',
  summary: 'Replace the recovery codes (a valid code required); answers the new ones, once',
  access: ['merchant'],
  permission: 'security',
  body: TwoFactorCodeBody,
  response: RecoveryCodesResponse,
});

export const twoFactorDisableOperation = defineSessionOperation({
  id: 'merchantTwoFactorDisable',
  method: 'POST',
  path: '/api/MerchantTwoFactor/Disable',
  tag: 'Sign-in',
  summary: 'Turn two-factor off (a valid code required; refused while the account requires it)',
  access: ['merchant'],
  permission: 'security',
  body: TwoFactorCodeBody,
  successStatus: 204,
});

export const memberLoginOperation = defineSessionOperation({
  id: 'memberLogin',
  method: 'POST',
  path: '/api/MemberAuth/Login',
  tag: 'Sign-in',
  summary: 'Mail a wallet sign-in link',
  access: 'public',
  body: MemberLoginBody,
  response: MemberLinkSentResponse,
  successStatus: 202,
});

export const memberVerifyOperation = defineSessionOperation({
  id: 'memberVerify',
  method: 'POST',
  path: '/api/MemberAuth/Verify',
  tag: 'Sign-in',
  summary: "Exchange a sign-in link's loginToken for tokens",
  access: 'public',
  body: MemberVerifyBody,
  response: TokenPairResponse,
});

const refresh = (audience: Audience) =>
  defineSessionOperation({
    id: `${audience}Refresh`,
    method: 'POST',
    path: `/api/${AUTH_FAMILY[audience]}/Refresh`,
    tag: 'Sign-in',
    summary: 'Rotate the refresh token and get a new token pair',
    access: 'public',
    body: RefreshBody,
    response: TokenPairResponse,
  });

const logout = (audience: Audience) =>
  defineSessionOperation({
    id: `${audience}Logout`,
    method: 'POST',
    path: `/api/${AUTH_FAMILY[audience]}/Logout`,
    tag: 'Sign-in',
    summary: 'End the sign-in (revokes the refresh-token family)',
    description: 'Send the refresh token in the body, or the access token as Bearer.',
    access: 'public',
    body: LogoutBody,
    successStatus: 204,
  });

export const refreshOperations = { admin: refresh('admin'), merchant: refresh('merchant'), member: refresh('member') };
export const logoutOperations = { admin: logout('admin'), merchant: logout('merchant'), member: logout('member') };

export const identityOperation = defineSessionOperation({
  id: 'identity',
  method: 'GET',
  path: '/api/Auth/Identity',
  tag: 'Sign-in',
  summary: 'The holder of the current access token',
  access: ['admin', 'merchant', 'member'],
  response: IdentityResponse,
});

export const listMerchantApiKeysOperation = defineSessionOperation({
  id: 'listMerchantApiKeys',
  method: 'GET',
  path: '/api/MerchantApiKey',
  tag: 'Seller console',
  summary: "List the seller's API keys (prefix only)",
  access: ['merchant'],
  permission: 'developers:read',
  query: listQuery(['createdAt', 'name'], { revoked: BooleanQuery.optional() }),
  response: pageOf(ApiKeyResponse),
});

export const createMerchantApiKeyOperation = defineSessionOperation({
  id: 'createMerchantApiKey',
  method: 'POST',
  path: '/api/MerchantApiKey',
  tag: 'Seller console',
  summary: 'Create an API key with chosen scopes (the secret is returned once)',
  access: ['merchant'],
  permission: 'developers:write',
  body: CreateApiKeyBody,
  response: CreatedApiKeyResponse,
  successStatus: 201,
  transaction: true,
});

export const revokeMerchantApiKeyOperation = defineSessionOperation({
  id: 'revokeMerchantApiKey',
  method: 'POST',
  path: '/api/MerchantApiKey/{apiKeyId}/Revoke',
  tag: 'Seller console',
  summary: 'Revoke an API key (effective on the next call)',
  access: ['merchant'],
  permission: 'developers:write',
  params: idParam('apiKeyId', 'key'),
  response: ApiKeyResponse,
  transaction: true,
});

export const listMerchantsOperation = defineSessionOperation({
  id: 'adminListMerchants',
  method: 'GET',
  path: '/api/AdminMerchant',
  tag: 'Platform admin',
  summary: 'List sellers',
  access: ['admin'],
  query: listQuery(['createdAt', 'name', 'email'], {
    status: z.enum(['active', 'suspended']).optional(),
    email: z.string().min(1).max(320).optional().meta({ description: 'Part of the email, any case.' }),
  }),
  response: pageOf(MerchantResponse),
});

const MerchantParams = idParam('merchantId', 'mer');

export const suspendMerchantOperation = defineSessionOperation({
  id: 'adminSuspendMerchant',
  method: 'POST',
  path: '/api/AdminMerchant/{merchantId}/Suspend',
  tag: 'Platform admin',
  summary: 'Suspend a seller: its API keys and sign-ins stop at once',
  access: ['admin'],
  params: MerchantParams,
  body: SuspensionBody,
  response: MerchantResponse,
  transaction: true,
  answers: { 409: 'INVALID_STATE: the seller is suspended already.' },
});

export const reinstateMerchantOperation = defineSessionOperation({
  id: 'adminReinstateMerchant',
  method: 'POST',
  path: '/api/AdminMerchant/{merchantId}/Reinstate',
  tag: 'Platform admin',
  summary: 'Reinstate a suspended seller',
  access: ['admin'],
  params: MerchantParams,
  body: SuspensionBody,
  response: MerchantResponse,
  transaction: true,
  answers: { 409: 'INVALID_STATE: the seller is active already.' },
});
