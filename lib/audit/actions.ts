/**
 * Every action the audit log records, with the words the consoles show for it. Sign-in
 * failures have no transaction of their own to join; everything else is written in the
 * transaction of the change it records.
 */
export const AUDIT_ACTIONS = {
  'admin.sign_in': 'Admin signed in',
  'admin.sign_in_failed': 'Admin sign-in failed',
  'seller.sign_in': 'Signed in',
  'seller.sign_in_failed': 'Sign-in failed',
  'seller.two_factor_failed': 'Two-factor code refused',
  'seller.password_reset_requested': 'Password reset requested',
  'seller.password_reset': 'Password reset',
  'seller.two_factor_enabled': 'Two-factor turned on',
  'seller.two_factor_disabled': 'Two-factor turned off',
  'seller.recovery_codes_regenerated': 'Recovery codes replaced',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'webhook_endpoint.secret_rotated': 'Webhook signing secret rotated',
  'merchant.suspended': 'Seller suspended',
  'merchant.reinstated': 'Seller reinstated',
  'refund.created': 'Refund issued',
  'dispute.evidence_submitted': 'Dispute evidence sent',
  'stripe.connected': 'Stripe account connected',
  'stripe.disconnected': 'Stripe account disconnected',
  'payment.review_settled': 'Payment settled after review',
  'team.member_invited': 'Team member invited',
  'team.invitation_revoked': 'Invitation revoked',
  'team.invitation_accepted': 'Invitation accepted',
  'team.role_changed': 'Role changed',
  'team.member_removed': 'Team member removed',
  'team.two_factor_requirement_changed': 'Two-factor requirement changed',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export const isAuditAction = (value: string): value is AuditAction => value in AUDIT_ACTIONS;
