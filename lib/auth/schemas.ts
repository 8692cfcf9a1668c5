import { z } from 'zod';
import { Email, Timestamp } from '../http/schemas';
import { SCOPES } from '../http/scopes';
import { ACCOUNT_TYPES, MerchantResponse } from '../merchants/schemas';

export const PASSWORD_MIN_LENGTH = 10;

const Password = z.string().min(1).max(200);

export const AdminLoginBody = z.strictObject({ name: z.string().min(1).max(200), password: Password });

export const MerchantLoginBody = z.strictObject({
  email: Email,
  password: Password,
  accountType: z.enum(ACCOUNT_TYPES).optional().meta({ description: 'Business or Individual; when sent it must match the account.' }),
});

export const MerchantRegisterBody = z.strictObject({
  email: Email,
  password: z.string().min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters.`).max(200),
  name: z.string().trim().min(1).max(250).meta({ description: 'Business or personal name shown to customers.' }),
  accountType: z.enum(ACCOUNT_TYPES),
});

/** Why an admin suspends or reinstates a seller: kept in the audit log and the seller's suspension history. */
export const SuspensionBody = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional().meta({ description: "Why (kept in the audit log and the seller page's suspension history)." }),
});

export const MemberLoginBody = z.strictObject({ email: Email });
export const MemberVerifyBody = z.strictObject({ loginToken: z.string().min(1).max(200) });

export const RefreshBody = z.strictObject({ refreshToken: z.string().min(1).max(200) });
export const LogoutBody = z.strictObject({ refreshToken: z.string().min(1).max(200).optional() });

export const TokenPairResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.int().meta({ description: 'Seconds until the access token expires (900).' }),
  tokenType: z.literal('Bearer'),
});

export const MemberLinkSentResponse = z.object({ sent: z.literal(true), expiresIn: z.int() });

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).min(1, 'Choose at least one scope.').max(SCOPES.length),
});

export const ApiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  prefix: z.string(),
  apiVersion: z.string().meta({
    description: 'The API version pinned when the key was created: requests without a `Paybase-Version` header are answered in it (docs/changelog.md).',
    example: '2026-11-27',
  }),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
});

export const CreatedApiKeyResponse = ApiKeyResponse.extend({
  secret: z.string().meta({ description: 'The full key. Shown only in this answer.' }),
});

export const NewPassword = z.string().min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters.`).max(200);

export const PasswordResetBody = z.strictObject({ email: Email });
export const PasswordResetConfirmBody = z.strictObject({
  resetToken: z.string().min(1).max(200).meta({ description: 'The `prt_…` token of the emailed link.' }),
  password: NewPassword,
});
export const VerifyEmailBody = z.strictObject({
  verificationToken: z.string().min(1).max(200).meta({ description: 'The `emv_…` token of the emailed link.' }),
});
export const LinkSentResponse = z.object({ sent: z.literal(true), expiresIn: z.int().meta({ description: 'Seconds the emailed link works.' }) });

export const TwoFactorChallengeResponse = z.object({
  twoFactorRequired: z.literal(true),
  challengeToken: z.string().meta({ description: 'The `tfc_…` token for `POST /api/MerchantAuth/Login/TwoFactor`; single use.' }),
  expiresIn: z.int().meta({ description: 'Seconds the challenge works (300).' }),
});
export const LoginTwoFactorBody = z.strictObject({
  challengeToken: z.string().min(1).max(200),
  code: z.string().trim().min(6).max(40).meta({ description: 'The 6-digit code of the authenticator app, or an unused recovery code.' }),
});

export const TwoFactorCodeBody = z.strictObject({ code: z.string().trim().min(6).max(40) });
export const TwoFactorSetupResponse = z.object({
  secret: z.string().meta({ description: 'Base32 secret, for typing into an authenticator app.' }),
  uri: z.string().meta({ description: 'otpauth:// URI (what the QR code encodes).' }),
  qrSvg: z.string().meta({ description: 'The URI as an SVG QR code.' }),
});
export const RecoveryCodesResponse = z.object({
  recoveryCodes: z.array(z.string()).meta({ description: 'Ten one-time codes, shown only in this answer.' }),
});

/** A new seller: its account and its first token pair. */
export const MerchantRegisteredResponse = TokenPairResponse.extend({ merchant: MerchantResponse });
