import { z } from 'zod';
import { Email, Timestamp } from '../http/schemas';
import { ACCOUNT_TYPES, PASSWORD_MIN_LENGTH, SellerUserResponse, TokenPairResponse } from '../auth/schemas';
import { SELLER_ROLES } from './roles';

const Role = z.enum(SELLER_ROLES).meta({ description: 'Owner, Admin, Developer, Support or ReadOnly.' });

export const InviteMemberBody = z.strictObject({ email: Email, role: Role });
export const ChangeRoleBody = z.strictObject({ role: Role });
export const AcceptInvitationBody = z.strictObject({
  invitationToken: z.string().min(1).max(200).meta({ description: 'The `inv_…` token of the emailed link.' }),
  name: z.string().trim().min(1).max(250),
  password: z.string().min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters.`).max(200),
});

export const InvitationResponse = z.object({ id: z.string(), email: z.string(), role: Role, createdAt: Timestamp, expiresAt: Timestamp });
export const TeamResponse = z.object({ members: z.array(SellerUserResponse), invitations: z.array(InvitationResponse) });
export const RequireTwoFactorBody = z.strictObject({ required: z.boolean() });

/** The seller account as the sign-in APIs and the admin console show it (`toMerchantResponse`). */
export const MerchantResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  status: z.enum(['active', 'suspended']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** A new seller: its account and its first token pair. */
export const MerchantRegisteredResponse = TokenPairResponse.extend({ merchant: MerchantResponse });

const NullableText = z.string().nullable();

/** The seller account's settings (`toAccountSettings`). */
export const AccountSettingsResponse = z.object({
  id: z.string(),
  name: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  email: z.string(),
  supportEmail: NullableText,
  supportUrl: NullableText,
  address: z.object({ line1: NullableText, line2: NullableText, city: NullableText, region: NullableText, postalCode: NullableText, country: NullableText }),
  timeZone: z.string().meta({ description: 'IANA time zone.' }),
  sendReceipts: z.boolean(),
  updatedAt: Timestamp,
});

/** The holder of an access token, by `userType`; a seller's is its account plus the signed-in `user` and its `role`. */
export const IdentityResponse = z.discriminatedUnion('userType', [
  z.object({ userType: z.literal('Admin'), id: z.string(), name: z.string(), createdAt: Timestamp }),
  MerchantResponse.extend({ userType: z.literal('Merchant'), role: Role, user: SellerUserResponse }),
  z.object({ userType: z.literal('Member'), id: z.string(), email: z.string(), createdAt: Timestamp }),
]);
