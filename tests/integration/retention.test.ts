import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import {
  authSessions,
  memberLoginTokens,
  outboundEmails,
  portalTokens,
  processorEvents,
  rateLimitBuckets,
  refreshTokens,
  sellerInvitations,
  webhookEndpoints,
} from '@/lib/db/schema';
import { writeEmail, purgeEmailOutbox } from '@/lib/email/send-email';
import { purgeSignInRows } from '@/lib/auth/retention';
import { purgeOldInvitations } from '@/lib/team/team';
import { purgeExpiredPortalTokens, requestPortalLink } from '@/lib/portal/portal';
import { dropExpiredPreviousSecrets } from '@/lib/webhooks/endpoints';
import { pruneProcessorEvents } from '@/lib/processors/stripe-events';
import { sha256Hex } from '@/lib/secrets';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { customerWithCard } from '../helpers/subscriptions';
import { freshIp, registerSeller, registerVerifiedSeller, signInSeller, uniqueEmail } from '../helpers/sessions';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const refresh = (refreshToken: string) => call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken } });

describe('retention of secret-bearing rows (docs/operations.md, "Retention")', () => {
  it('the outbox drops a mail’s sealed copy after 7 days and the mail after 30', async () => {
    const db = getDb();
    const message = (to: string) => ({
      to,
      subject: 'Link',
      text: 'https://example.test/x?token=tok_secret_value',
      category: 'test.link',
      secrets: ['tok_secret_value'],
    });
    const [fresh, week, month] = await Promise.all([uniqueEmail('fresh'), uniqueEmail('week'), uniqueEmail('month')].map((to) => writeEmail(db, message(to))));
    await db
      .update(outboundEmails)
      .set({ createdAt: daysAgo(8) })
      .where(eq(outboundEmails.id, week!.id));
    await db
      .update(outboundEmails)
      .set({ createdAt: daysAgo(31) })
      .where(eq(outboundEmails.id, month!.id));

    await purgeEmailOutbox(db);
    const rows = async (id: string) => db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
    expect((await rows(fresh!.id))[0]!.sealedContent).toMatch(/^v1:/);
    const [weekOld] = await rows(week!.id);
    expect(weekOld!.sealedContent).toBeNull();
    expect(weekOld!.textBody).toBe('https://example.test/x?token=[redacted]');
    expect(await rows(month!.id)).toHaveLength(0);
  });

  it('sign-in rows: expired links go, a rotated pair is unsealed after its grace, ended sessions go, live sessions stay', async () => {
    const db = getDb();
    const member = uniqueEmail('member');
    await call('POST', '/api/MemberAuth/Login', { body: { email: member }, headers: freshIp() });
    await db
      .update(memberLoginTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberLoginTokens.email, member));

    const { email, tokens } = await registerSeller();
    const rotated = await refresh(tokens.refreshToken);
    expect(rotated.status).toBe(200);
    const rotatedRow = eq(refreshTokens.tokenHash, sha256Hex(tokens.refreshToken));
    expect((await db.select().from(refreshTokens).where(rotatedRow))[0]!.successorPair).toMatch(/^v1:/);
    await db
      .update(refreshTokens)
      .set({ usedAt: new Date(Date.now() - 120_000) })
      .where(rotatedRow);

    const ended = await signInSeller(email);
    expect((await call('POST', '/api/MerchantAuth/Logout', { body: { refreshToken: ended.refreshToken } })).status).toBe(204);
    const [endedToken] = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(ended.refreshToken)));
    await db
      .update(authSessions)
      .set({ createdAt: daysAgo(2), revokedAt: daysAgo(2) })
      .where(eq(authSessions.id, endedToken!.sessionId));

    const bucket = `login-ip:${sha256Hex(`retention-${Date.now()}`)}`;
    await db.insert(rateLimitBuckets).values({ key: bucket, windowStartedAt: daysAgo(1), count: 3 });

    await purgeSignInRows(db);

    expect(await db.select().from(memberLoginTokens).where(eq(memberLoginTokens.email, member))).toHaveLength(0);
    expect((await db.select().from(refreshTokens).where(rotatedRow))[0]!.successorPair).toBeNull();
    expect(await db.select().from(authSessions).where(eq(authSessions.id, endedToken!.sessionId))).toHaveLength(0);
    expect(await db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, bucket))).toHaveLength(0);
    // The live session still refreshes; the old token, reused, still ends it (reuse detection kept).
    const next = await refresh(rotated.body.refreshToken);
    expect(next.status, next.text).toBe(200);
    expect((await refresh(tokens.refreshToken)).body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await refresh(next.body.refreshToken)).status).toBe(401);
  });

  it('invitations go 30 days after they expire; portal tokens once expired; a rotated-out webhook secret once its overlap ends', async () => {
    const db = getDb();
    const owner = await registerVerifiedSeller();
    const invited = await call('POST', '/api/MerchantTeam/Invitation', {
      key: owner.tokens.accessToken,
      body: { email: uniqueEmail('late'), role: 'Support' },
    });
    await db
      .update(sellerInvitations)
      .set({ expiresAt: daysAgo(31) })
      .where(eq(sellerInvitations.id, invited.body.id));
    await purgeOldInvitations(db);
    expect(await db.select().from(sellerInvitations).where(eq(sellerInvitations.id, invited.body.id))).toHaveLength(0);

    const { api, merchant } = await newMerchant();
    const customer = await customerWithCard(api, merchant.id, undefined, uniqueEmail('portal'));
    await db.transaction((tx) => requestPortalLink(tx, customer.customerId));
    await db
      .update(portalTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(portalTokens.customerId, customer.customerId));
    await purgeExpiredPortalTokens(db);
    expect(await db.select().from(portalTokens).where(eq(portalTokens.customerId, customer.customerId))).toHaveLength(0);

    const endpoint = await api.post('/api/WebhookEndpoint', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect((await api.post(`/api/WebhookEndpoint/${endpoint.body.id}/RotateSecret`)).status).toBe(200);
    await db.update(webhookEndpoints).set({ previousSecretExpiresAt: sql`now() - interval '1 second'` }).where(eq(webhookEndpoints.id, endpoint.body.id));
    await dropExpiredPreviousSecrets(db);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.body.id));
    expect(row!.previousSecretCiphertext).toBeNull();
  });
});

describe("retention of Stripe's events", () => {
  it('drops processed events after 30 days, never an unprocessed one', async () => {
    const db = getDb();
    const event = (id: string, days: number, processed: boolean) => ({
      id,
      connection: 'platform',
      processor: 'stripe' as const,
      livemode: false,
      type: 'payment_intent.succeeded',
      payload: { id, customer_email: 'someone@example.com' },
      receivedAt: daysAgo(days),
      processedAt: processed ? daysAgo(days) : null,
    });
    const id = (what: string) => `evt_retention_${what}_${Date.now()}`;
    const [fresh, old, waiting] = [id('fresh'), id('old'), id('waiting')];
    await db.insert(processorEvents).values([event(fresh, 29, true), event(old, 31, true), event(waiting, 40, false)]);

    expect(await pruneProcessorEvents(db)).toBeGreaterThanOrEqual(1);
    const left = await db
      .select({ id: processorEvents.id })
      .from(processorEvents)
      .where(inArray(processorEvents.id, [fresh, old, waiting]));
    expect(left.map((row) => row.id).sort()).toEqual([fresh, waiting].sort());
  });
});
