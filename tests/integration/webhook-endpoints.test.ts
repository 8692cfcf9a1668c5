import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookEndpoints } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { keyWithScopes, newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';

const URL_A = 'http://127.0.0.1:9/hooks/a';

describe('/api/WebhookEndpoint', () => {
  it('creates an endpoint, shows the signing secret once and stores it encrypted', async () => {
    const { api } = await newMerchant();
    const created = await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['product.created', 'price.created'], description: 'Main' });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^we_[0-9A-Z]{26}$/);
    expect(created.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.body).toMatchObject({
      url: URL_A,
      events: ['product.created', 'price.created'],
      description: 'Main',
      enabled: true,
      status: 'enabled',
      disabledReason: null,
      secretPrefix: created.body.signingSecret.slice(0, 12),
    });

    const read = await api.get(`/api/WebhookEndpoint/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.signingSecret).toBeUndefined();
    expect(read.body.secretPrefix).toBe(created.body.secretPrefix);
    const listed = await api.get('/api/WebhookEndpoint');
    expect(listed.text).not.toContain(created.body.signingSecret);
    expect(listed.body.data[0].signingSecret).toBeUndefined();

    const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(row!.secretCiphertext).toMatch(/^v1:/);
    expect(row!.secretCiphertext).not.toContain(created.body.signingSecret.slice('whsec_'.length, 20));
  });

  it('accepts * for every event type and rejects unknown types and unsafe URLs with the field path', async () => {
    const { api } = await newMerchant();
    expect((await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] })).status).toBe(201);
    const cases: [unknown, string][] = [
      [{ url: URL_A, events: ['product.deleted'] }, 'events.0'],
      [{ url: URL_A, events: [] }, 'events'],
      [{ url: URL_A }, 'events'],
      [{ events: ['*'] }, 'url'],
      [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'http://user:pass@127.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'http://0.0.0.0/x', events: ['*'] }, 'url'],
      [{ url: URL_A, events: ['*'], secret: 'mine' }, 'secret'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/WebhookEndpoint', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await api.get('/api/WebhookEndpoint')).body.totalCount).toBe(1);
  });

  it('updates url, events, description and enabled; disabling and re-enabling are visible', async () => {
    const { api } = await newMerchant();
    const { body: endpoint } = await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    const updated = await api.put(`/api/WebhookEndpoint/${endpoint.id}`, {
      url: 'http://127.0.0.1:9/hooks/b',
      events: ['customer.created'],
      description: 'Renamed',
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      url: 'http://127.0.0.1:9/hooks/b',
      events: ['customer.created'],
      description: 'Renamed',
      enabled: false,
      status: 'disabled',
      disabledReason: 'manual',
    });
    expect(updated.body.disabledAt).not.toBeNull();
    expect((await api.get('/api/WebhookEndpoint?enabled=false')).body.totalCount).toBe(1);
    expect((await api.get('/api/WebhookEndpoint?enabled=true')).body.totalCount).toBe(0);
    const enabled = await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, status: 'enabled', disabledReason: null, disabledAt: null, description: 'Renamed' });
    const bad = await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { events: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('events.0');
  });

  it('deletes an endpoint', async () => {
    const { api, key } = await newMerchant();
    const { body: endpoint } = await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    const deleted = await call('DELETE', `/api/WebhookEndpoint/${endpoint.id}`, { key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: endpoint.id, deleted: true });
    expect((await api.get(`/api/WebhookEndpoint/${endpoint.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/WebhookEndpoint/${endpoint.id}`, { key })).status).toBe(404);
  });

  it('rotates the secret: the new one is shown once and the old one overlaps for 24 hours', async () => {
    const { api } = await newMerchant();
    const { body: endpoint } = await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    const before = Date.now();
    const rotated = await api.post(`/api/WebhookEndpoint/${endpoint.id}/RotateSecret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(endpoint.signingSecret);
    expect(rotated.body.secretPrefix).toBe(rotated.body.signingSecret.slice(0, 12));
    const overlapEnds = new Date(rotated.body.previousSecretExpiresAt).getTime();
    expect(overlapEnds - before).toBeGreaterThanOrEqual(24 * 3600_000 - 5_000);
    expect(overlapEnds - before).toBeLessThanOrEqual(24 * 3600_000 + 5_000);
    const read = await api.get(`/api/WebhookEndpoint/${endpoint.id}`);
    expect(read.body.signingSecret).toBeUndefined();
    expect(read.body.secretPrefix).toBe(rotated.body.secretPrefix);
  });

  it("answers 404 for another merchant's endpoint, never 403", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const { body: endpoint } = await owner.api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    expect((await stranger.api.get(`/api/WebhookEndpoint/${endpoint.id}`)).status).toBe(404);
    expect((await stranger.api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: false })).status).toBe(404);
    expect((await stranger.api.post(`/api/WebhookEndpoint/${endpoint.id}/RotateSecret`)).status).toBe(404);
    expect((await call('DELETE', `/api/WebhookEndpoint/${endpoint.id}`, { key: stranger.key })).status).toBe(404);
    expect((await stranger.api.get('/api/WebhookEndpoint')).body.totalCount).toBe(0);
    expect((await owner.api.get(`/api/WebhookEndpoint/${endpoint.id}`)).body.enabled).toBe(true);
  });

  it('lists with paging', async () => {
    const { api } = await newMerchant();
    for (const n of [1, 2, 3]) await api.post('/api/WebhookEndpoint', { url: `${URL_A}/${n}`, events: ['*'] });
    const first = await api.get('/api/WebhookEndpoint?pageSize=2');
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, totalCount: 3, hasMore: true });
    expect(first.body.data.map((e: { url: string }) => e.url)).toEqual([`${URL_A}/3`, `${URL_A}/2`]);
    expect((await api.get('/api/WebhookEndpoint?pageSize=2&page=2')).body.data.map((e: { url: string }) => e.url)).toEqual([`${URL_A}/1`]);
    expect((await api.get('/api/WebhookEndpoint?pageSize=101')).status).toBe(400);
  });

  it('needs webhooks:write to change and webhooks:read (implied by write) to read', async () => {
    const { api, merchant } = await newMerchant();
    const { body: endpoint } = await api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    const path = `/api/WebhookEndpoint/${endpoint.id}`;
    await expectAuthFailures(merchant.id, 'GET', '/api/WebhookEndpoint', 'webhooks:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/WebhookEndpoint', 'webhooks:write', { url: URL_A, events: ['*'] });
    await expectAuthFailures(merchant.id, 'GET', path, 'webhooks:read');
    await expectAuthFailures(merchant.id, 'PUT', path, 'webhooks:write', { enabled: false });
    await expectAuthFailures(merchant.id, 'DELETE', path, 'webhooks:write');
    await expectAuthFailures(merchant.id, 'POST', `${path}/RotateSecret`, 'webhooks:write');

    const reader = await keyWithScopes(merchant.id, ['webhooks:read']);
    expect((await reader.api.get(path)).status).toBe(200);
    const denied = await reader.api.post('/api/WebhookEndpoint', { url: URL_A, events: ['*'] });
    expect(denied.status).toBe(403);
    expect(denied.body.requiredScope).toBe('webhooks:write');
    const writer = await keyWithScopes(merchant.id, ['webhooks:write']);
    expect((await writer.api.get(path)).status).toBe(200);
    expect((await writer.api.get('/api/WebhookEvent')).status).toBe(200);
    expect((await writer.api.get('/api/WebhookDelivery')).status).toBe(200);
  });
});
