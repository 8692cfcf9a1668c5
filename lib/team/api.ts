import { defineSessionOperation } from '../http/session-operation';
import { idParam } from '../http/schemas';
import { TokenPairResponse } from '../auth/schemas';
import { SellerUserResponse } from '../merchants/schemas';
import { AcceptInvitationBody, ChangeRoleBody, InvitationResponse, InviteMemberBody, RequireTwoFactorBody, TeamResponse } from './schemas';

const UserParams = idParam('userId', 'usr');

export const listTeamOperation = defineSessionOperation({
  id: 'listMerchantTeam',
  method: 'GET',
  path: '/api/MerchantTeam',
  tag: 'Seller console',
  summary: "The seller account's members and open invitations",
  access: ['merchant'],
  permission: 'team:read',
  response: TeamResponse,
});

export const inviteMemberOperation = defineSessionOperation({
  id: 'inviteMerchantTeamMember',
  method: 'POST',
  path: '/api/MerchantTeam/Invitation',
  tag: 'Seller console',
  summary: 'Invite a person by email with a role (Owner and Admin; the inviter must have a verified email)',
  access: ['merchant'],
  permission: 'team:manage',
  body: InviteMemberBody,
  response: InvitationResponse,
  successStatus: 201,
  transaction: true,
  answers: { 409: 'CONFLICT: the address already signs in to a seller account.' },
});

export const revokeInvitationOperation = defineSessionOperation({
  id: 'revokeMerchantTeamInvitation',
  method: 'POST',
  path: '/api/MerchantTeam/Invitation/{invitationId}/Revoke',
  tag: 'Seller console',
  summary: 'Revoke an open invitation (its link stops working)',
  access: ['merchant'],
  permission: 'team:manage',
  params: idParam('invitationId', 'inv'),
  successStatus: 204,
  transaction: true,
});

export const changeRoleOperation = defineSessionOperation({
  id: 'changeMerchantTeamRole',
  method: 'POST',
  path: '/api/MerchantTeam/{userId}/Role',
  tag: 'Seller console',
  summary: "Change a member's role (only Owners touch the Owner role; the account keeps an Owner)",
  access: ['merchant'],
  permission: 'team:manage',
  params: UserParams,
  body: ChangeRoleBody,
  response: SellerUserResponse,
  transaction: true,
  answers: { 409: 'INVALID_STATE: the account must keep an Owner.' },
});

export const removeMemberOperation = defineSessionOperation({
  id: 'removeMerchantTeamMember',
  method: 'POST',
  path: '/api/MerchantTeam/{userId}/Remove',
  tag: 'Seller console',
  summary: 'Remove a member: its sign-ins end at once (the account keeps an Owner)',
  access: ['merchant'],
  permission: 'team:manage',
  params: UserParams,
  successStatus: 204,
  transaction: true,
  answers: { 409: 'INVALID_STATE: the account must keep an Owner.' },
});

export const acceptInvitationOperation = defineSessionOperation({
  id: 'merchantAcceptInvitation',
  method: 'POST',
  path: '/api/MerchantAuth/AcceptInvitation',
  tag: 'Sign-in',
  summary: "Accept a team invitation: creates the member's login and signs it in",
  access: 'public',
  body: AcceptInvitationBody,
  response: TokenPairResponse.extend({ user: SellerUserResponse }),
  successStatus: 201,
  answers: { 409: 'CONFLICT: the address already signs in to a seller account.' },
});

export const requireTwoFactorOperation = defineSessionOperation({
  id: 'merchantTeamRequireTwoFactor',
  method: 'POST',
  path: '/api/MerchantTeam/RequireTwoFactor',
  tag: 'Seller console',
  summary: 'Require (or stop requiring) two-factor sign-in for every member (Owners only; their own two-factor must be on)',
  access: ['merchant'],
  permission: 'security:team',
  body: RequireTwoFactorBody,
  successStatus: 204,
  transaction: true,
  answers: { 409: 'INVALID_STATE: turn on two-factor sign-in for yourself first.' },
});
