import { z } from 'zod';
import { Email, Timestamp } from '../http/schemas';
import { PASSWORD_MIN_LENGTH } from '../auth/schemas';
import { Role, SellerUserResponse } from '../merchants/schemas';

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
