import { recordAudit } from '../audit/audit-log';
import { and, eq, isNull, isNotNull, lt, or, desc, sql } from 'drizzle-orm';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { notFound } from '../http/errors';
import { preparedPerDatabase, type Database, type Db } from '../db/client';
import { apiKeys, merchants } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { randomToken, sha256Hex } from '../secrets';
import type { Scope } from '../http/scopes';

const SECRET_PREFIX = 'sk_';
const VISIBLE_PREFIX_LENGTH = 11;

export interface ApiKeyPrincipal {
  apiKeyId: string;
  merchantId: string;
  scopes: string[];
  /** When the key was last recorded as used (at most a minute stale: see touchApiKey). */
  lastUsedAt: Date | null;
}

const TOUCH_INTERVAL_MS = 60_000;

export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  /** The full secret: returned here once and never stored. */
  secret: string;
  createdAt: Date;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(SECRET_PREFIX);
}

/** Creates a key; only its SHA-256 hash and a short prefix are kept. Pass `secret` to fix its value (demo seeding). */
export async function createApiKey(db: Db, input: { merchantId: string; name: string; scopes: readonly Scope[]; secret?: string }): Promise<CreatedApiKey> {
  const secret = input.secret ?? `${SECRET_PREFIX}${randomToken(32)}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      merchantId: input.merchantId,
      name: input.name,
      scopes: [...input.scopes],
      prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
      secretHash: sha256Hex(secret),
      createdAt: now(),
    })
    .returning();
  return { id: row!.id, name: row!.name, scopes: row!.scopes, prefix: row!.prefix, secret, createdAt: row!.createdAt };
}

/**
 * Resolves a presented secret to its merchant and scopes. Revoked keys and keys of suspended
 * merchants resolve to nothing, checked on every request (one indexed query, prepared once per
 * connection) so revocation is immediate.
 */
export async function authenticateApiKey(db: Database, secret: string): Promise<ApiKeyPrincipal | undefined> {
  const [row] = await authenticationQuery(db).execute({ secretHash: sha256Hex(secret) });
  if (!row) return undefined;
  return { apiKeyId: row.id, merchantId: row.merchantId, scopes: row.scopes, lastUsedAt: row.lastUsedAt };
}

const authenticationQuery = preparedPerDatabase((db) =>
  db
    .select({ id: apiKeys.id, merchantId: apiKeys.merchantId, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(and(eq(apiKeys.secretHash, sql.placeholder('secretHash')), isNull(apiKeys.revokedAt), eq(merchants.status, 'active')))
    .limit(1)
    .prepare('authenticate_api_key'),
);

/** Whether a request should record the key's use: at most once a minute, so reads do not write. */
export function apiKeyUseIsStale(principal: ApiKeyPrincipal, at = now()): boolean {
  return !principal.lastUsedAt || principal.lastUsedAt.getTime() < at.getTime() - TOUCH_INTERVAL_MS;
}

/** Records use at most once a minute per key (the condition also holds when requests race). */
export async function touchApiKey(db: Db, apiKeyId: string): Promise<void> {
  const at = now();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, apiKeyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(at.getTime() - TOUCH_INTERVAL_MS)))));
}

export async function revokeApiKey(db: Db, input: { merchantId: string; apiKeyId: string }): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now() })
    .where(and(eq(apiKeys.id, input.apiKeyId), eq(apiKeys.merchantId, input.merchantId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export async function listApiKeys(db: Db, merchantId: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.merchantId, merchantId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function findApiKeyBySecret(db: Db, secret: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, sha256Hex(secret)))
    .limit(1);
  return row;
}

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** A key as the console and the key-management API show it: never the secret or its hash. */
export function toApiKeyResponse(row: Pick<ApiKeyRow, 'id' | 'name' | 'scopes' | 'prefix' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>) {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeyPage(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt' | 'name'; revoked?: boolean }) {
  const page = await paginate(db, apiKeys, {
    ...query,
    scope: [eq(apiKeys.merchantId, merchantId)],
    where: [query.revoked === undefined ? undefined : query.revoked ? isNotNull(apiKeys.revokedAt) : isNull(apiKeys.revokedAt)],
    orderBy: [query.orderBy === 'name' ? apiKeys.name : apiKeys.createdAt, apiKeys.id],
  });
  return mapPage(page, toApiKeyResponse);
}

/** Creates a key with the chosen scopes; the answer carries the full secret, this once. */
export async function createMerchantApiKey(tx: Db, merchantId: string, input: { name: string; scopes: readonly Scope[] }) {
  const created = await createApiKey(tx, { merchantId, name: input.name, scopes: [...new Set(input.scopes)] });
  await recordAudit(tx, {
    merchantId,
    action: 'api_key.created',
    target: { kind: 'api_key', id: created.id },
    metadata: { name: created.name, scopes: created.scopes },
  });
  return { ...toApiKeyResponse({ ...created, lastUsedAt: null, revokedAt: null }), secret: created.secret };
}

/** Revokes a key; the next developer-API call with it answers 401. Revoking twice is harmless. */
export async function revokeMerchantApiKey(tx: Db, merchantId: string, apiKeyId: string) {
  if (await revokeApiKey(tx, { merchantId, apiKeyId })) {
    await recordAudit(tx, { merchantId, action: 'api_key.revoked', target: { kind: 'api_key', id: apiKeyId } });
  }
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.merchantId, merchantId)));
  if (!row) throw notFound('API key', apiKeyId);
  return toApiKeyResponse(row);
}
