import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as authOperations from '@/lib/auth/api';
import * as merchantOperations from '@/lib/merchants/api';
import * as teamOperations from '@/lib/team/api';
import type { SessionOperation } from '@/lib/http/session-operation';

/**
 * Every server action of the seller console and what it must check on the server before it
 * does anything (docs/auth.md, "Team and roles"): a permission through `sellerAction` or
 * `sellerAccountId` (the session re-read, the role applied), the signed-in session alone, or
 * nothing for the sign-in flows that run before there is a session. A new action fails this
 * test until it is added here, with its check.
 */
const ACTION_CHECKS: Record<string, string> = {
  signInAction: 'public',
  twoFactorSignInAction: 'public',
  signUpAction: 'public',
  signOutAction: 'public',
  forgotPasswordAction: 'public',
  resetPasswordAction: 'public',
  verifyEmailAction: 'public',
  acceptInvitationAction: 'public',
  resendVerificationAction: 'session',
  createProductAction: 'catalog:write',
  setProductActiveAction: 'catalog:write',
  updateProductAction: 'catalog:write',
  createPriceAction: 'catalog:write',
  setPriceActiveAction: 'catalog:write',
  createPaymentLinkAction: 'catalog:write',
  updatePaymentLinkAction: 'catalog:write',
  paymentLinkStateAction: 'catalog:write',
  createCouponAction: 'catalog:write',
  createPromotionCodeAction: 'catalog:write',
  setPromotionCodeActiveAction: 'catalog:write',
  createTaxRateAction: 'catalog:write',
  setTaxRateActiveAction: 'catalog:write',
  setDefaultTaxRatesAction: 'settings:write',
  updateCustomerAction: 'customers:write',
  setCustomValueAction: 'customers:write',
  createCustomerAction: 'customers:write',
  paymentMethodAction: 'customers:write',
  cancelSubscriptionAction: 'subscriptions:write',
  commandSubscriptionAction: 'subscriptions:write',
  createSubscriptionAction: 'subscriptions:write',
  previewPriceChangeAction: 'subscriptions:write',
  createTestClockAction: 'subscriptions:write',
  attachTestClockCustomerAction: 'subscriptions:write',
  advanceTestClockAction: 'subscriptions:write',
  createEntitlementPolicyAction: 'subscriptions:write',
  setEntitlementOverrideAction: 'subscriptions:write',
  createCreditGrantAction: 'subscriptions:write',
  reverseUsageAction: 'subscriptions:write',
  recordUsageAction: 'subscriptions:write',
  refundAction: 'refunds:create',
  submitDisputeEvidenceAction: 'disputes:respond',
  createApiKeyAction: 'developers:write',
  revokeApiKeyAction: 'developers:write',
  createWebhookEndpointAction: 'developers:write',
  updateWebhookEndpointAction: 'developers:write',
  rotateWebhookSecretAction: 'developers:write',
  setWebhookEndpointEnabledAction: 'developers:write',
  deleteWebhookEndpointAction: 'developers:write',
  sendTestWebhookEventAction: 'developers:write',
  recoverFailedDeliveriesAction: 'developers:write',
  retryWebhookDeliveryAction: 'developers:write',
  inviteMemberAction: 'team:manage',
  changeRoleAction: 'team:manage',
  removeMemberAction: 'team:manage',
  revokeInvitationAction: 'team:manage',
  supportRefundLimitAction: 'settings:write',
  saveSettingsAction: 'settings:write',
  connectStripeAction: 'settings:write',
  disconnectStripeAction: 'settings:write',
  createDesignAction: 'settings:write',
  updateDesignAction: 'settings:write',
  beginTwoFactorAction: 'security',
  confirmTwoFactorAction: 'security',
  regenerateRecoveryCodesAction: 'security',
  disableTwoFactorAction: 'security',
  teamTwoFactorAction: 'security:team',
};

const CONSOLE = path.resolve('app/(consoles)/merchant');

function serverActionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverActionFiles(full);
    return /\.tsx?$/.test(entry.name) && /^'use server';/m.test(fs.readFileSync(full, 'utf8')) ? [full] : [];
  });
}

/** Each exported async function of a file with its body, and the file's local helpers inlined where called. */
function actionsOf(file: string): { name: string; body: string }[] {
  const source = fs.readFileSync(file, 'utf8');
  const helpers = [...source.matchAll(/^const (\w+) = async \([^)]*\) => \{([\s\S]*?)^\};/gm)].map(([, name, body]) => ({ name: name!, body: body! }));
  const starts = [...source.matchAll(/^export async function (\w+)/gm)];
  return starts.map((match, index) => {
    let body = source.slice(match.index, starts[index + 1]?.index ?? source.length);
    for (const helper of helpers) if (body.includes(`${helper.name}(`)) body += helper.body;
    return { name: match[1]!, body };
  });
}

const PERMISSION_CHECK = /\b(?:sellerAction|sellerAccountId)\('([a-z:]+)'\)/g;

describe('seller console server actions check the role on the server', () => {
  const actions = serverActionFiles(CONSOLE).flatMap((file) => actionsOf(file).map((action) => ({ ...action, file: path.relative(CONSOLE, file) })));

  it('finds the console’s actions', () => {
    expect(actions.length).toBeGreaterThanOrEqual(Object.keys(ACTION_CHECKS).length);
  });

  it('every action checks what the table says, before anything else', () => {
    for (const action of actions) {
      const expected = ACTION_CHECKS[action.name];
      expect(expected, `${action.file}: ${action.name} is not in ACTION_CHECKS; add it with the check it makes`).toBeDefined();
      const checks = [...action.body.matchAll(PERMISSION_CHECK)].map((match) => match[1]);
      if (expected === 'public') {
        expect(checks, `${action.name} runs before sign-in and checks no role`).toEqual([]);
      } else if (expected === 'session') {
        expect(action.body, `${action.name} needs the signed-in session`).toContain("requireSession('merchant')");
      } else {
        expect(checks, `${action.file}: ${action.name} must call sellerAction('${expected}') or sellerAccountId('${expected}')`).toEqual([expected]);
        // The check comes first (the first line that awaits anything makes it, possibly as an
        // argument): nothing is read or written for a caller without the permission.
        const firstAwaitLine = action.body.split('\n').find((line) => line.includes('await '));
        expect(firstAwaitLine, `${action.name} checks the role in its first await`).toMatch(/await (?:sellerAction|sellerAccountId|userRef)\(/);
      }
    }
  });

  it('money and keys get their extra server checks: the refund limit, and scopes bounded by the role', () => {
    const body = (name: string) => actions.find((action) => action.name === name)!.body;
    expect(body('refundAction')).toMatch(/assertSellerMayRefund\(db, access,/);
    expect(body('createApiKeyAction')).toMatch(/createMerchantApiKey\(tx, access,/);
  });
});

describe('the seller sign-in APIs declare what the role must allow', () => {
  // Every signed-in seller may read its own identity and resend its own verification link.
  const OPEN_TO_EVERY_MEMBER = new Set(['identity', 'merchantResendVerification']);
  const modules: Record<string, unknown>[] = [authOperations, teamOperations, merchantOperations];
  const operations = modules
    .flatMap((module) => Object.values(module))
    .filter((value): value is SessionOperation => typeof value === 'object' && value !== null && 'access' in value && 'method' in value);

  it('each operation a seller calls with an access token names its permission', () => {
    const sellerOperations = operations.filter((operation) => operation.access !== 'public' && operation.access.includes('merchant'));
    expect(sellerOperations.length).toBeGreaterThan(10);
    for (const operation of sellerOperations) {
      if (OPEN_TO_EVERY_MEMBER.has(operation.id)) continue;
      expect(operation.permission, `${operation.method} ${operation.path} (${operation.id})`).toBeDefined();
    }
  });
});
