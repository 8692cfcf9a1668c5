import { recordAudit } from '../audit/audit-log';
import { and, eq, isNull, isNotNull, lt, or, desc, sql } from 'drizzle-orm';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { ApiError, notFound } from '../errors';
import { preparedPerDatabase, type Database, type Db } from '../db/client';
import { apiKeys, merchants, sellerUsers, type SellerRole } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { randomToken, sha256Hex } from '../secrets';
import { hasScope, isScope, type Scope } from '../http/scopes';
import { CURRENT_API_VERSION } from '../http/api-versions';
import { ROLE_LABELS, assertRoleMayGrantScopes, roleAllowsScope } from '../merchants/roles';
import type { SellerUserRow } from '../merchants/users';

const SECRET_PREFIX = 'sk_';
const VISIBLE_PREFIX_LENGTH = 11;

export interface ApiKeyPrincipal {
  apiKeyId: string;
  merchantId: string;
  /** What the key may do now: its scopes that its creator's current role still allows. */
  scopes: string[];
  /** The scopes the key was made with. */
  heldScopes: string[];
  /** The role of the seller user who created the key, read on this request; null for a key made by no one. */
  creatorRole: SellerRole | null;
  /** When the key was last recorded as used (at most a minute stale: see touchApiKey). */
  lastUsedAt: Date | null;
  /** The API version the key was pinned to when it was made: requests without `Paybase-Version` use it. */
  apiVersion: string;
}

const TOUCH_INTERVAL_MS = 60_000;

export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  apiVersion: string;
  /** The full secret: returned here once and never stored. */
  secret: string;
  createdAt: Date;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(SECRET_PREFIX);
}

/**
 * Creates a key; only its SHA-256 hash and a short prefix are kept. Pass `secret` to fix its
 * value (demo seeding). `createdByUserId` bounds the key by that seller user's role (sellers'
 * keys are made with `createMerchantApiKey`, which also checks the role).
 */
export async function createApiKey(
  db: Db,
  input: { merchantId: string; name: string; scopes: readonly Scope[]; secret?: string; createdByUserId?: string },
): Promise<CreatedApiKey> {
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
      apiVersion: CURRENT_API_VERSION,
      createdAt: now(),
      createdByUserId: input.createdByUserId ?? null,
    })
    .returning();
  return { id: row!.id, name: row!.name, scopes: row!.scopes, prefix: row!.prefix, apiVersion: row!.apiVersion, secret, createdAt: row!.createdAt };
}

/**
 * Resolves a presented secret to its merchant and scopes. Revoked keys, keys of suspended
 * merchants and keys whose creator has left the team resolve to nothing; a key's scopes are cut
 * to what its creator's role allows now. All checked on every request (one indexed query,
 * prepared once per connection), so revocation and role changes apply at once.
 */
export async function authenticateApiKey(db: Database, secret: string): Promise<ApiKeyPrincipal | undefined> {
  const [row] = await authenticationQuery(db).execute({ secretHash: sha256Hex(secret) });
  if (!row) return undefined;
  const creatorRole = row.creatorRole ?? null;
  const scopes = creatorRole ? row.scopes.filter((scope) => isScope(scope) && roleAllowsScope(creatorRole, scope)) : row.scopes;
  return {
    apiKeyId: row.id,
    merchantId: row.merchantId,
    scopes,
    heldScopes: row.scopes,
    creatorRole,
    lastUsedAt: row.lastUsedAt,
    apiVersion: row.apiVersion,
  };
}

const authenticationQuery = preparedPerDatabase((db) =>
  db
    .select({
      id: apiKeys.id,
      merchantId: apiKeys.merchantId,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      apiVersion: apiKeys.apiVersion,
      creatorRole: sellerUsers.role,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .leftJoin(sellerUsers, and(eq(sellerUsers.id, apiKeys.createdByUserId), eq(sellerUsers.merchantId, apiKeys.merchantId)))
    .where(
      and(
        eq(apiKeys.secretHash, sql.placeholder('secretHash')),
        isNull(apiKeys.revokedAt),
        eq(merchants.status, 'active'),
        or(isNull(apiKeys.createdByUserId), isNotNull(sellerUsers.id)),
      ),
    )
    .limit(1)
    .prepare('authenticate_api_key'),
);

/**
 * The 403 for a key without the scope an operation needs; when the key holds the scope but its
 * creator's role no longer allows it, it says so (the role was lowered after the key was made).
 */
export function missingScope(principal: ApiKeyPrincipal, required: Scope): ApiError {
  const detail =
    principal.creatorRole && hasScope(principal.heldScopes, required)
      ? `This API key holds the '${required}' scope, but the role of the team member who created it (${ROLE_LABELS[principal.creatorRole]}) no longer allows it. Ask an Owner or Admin for a key.`
      : `This API key lacks the '${required}' scope.`;
  return new ApiError('INSUFFICIENT_SCOPE', detail, { extra: { requiredScope: required } });
}

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
      apiVersion: apiKeys.apiVersion,
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
export function toApiKeyResponse(row: Pick<ApiKeyRow, 'id' | 'name' | 'scopes' | 'prefix' | 'apiVersion' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>) {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    apiVersion: row.apiVersion,
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

/**
 * A seller user creates a key with the chosen scopes, each of which its role must allow (else
 * 403 INSUFFICIENT_SCOPE naming them); the key stays bounded by that user's role. The answer
 * carries the full secret, this once.
 */
export async function createMerchantApiKey(tx: Db, creator: { merchantId: string; user: SellerUserRow }, input: { name: string; scopes: readonly Scope[] }) {
  const { merchantId } = creator;
  const scopes = [...new Set(input.scopes)];
  assertRoleMayGrantScopes(creator.user.role, scopes);
  const created = await createApiKey(tx, { merchantId, name: input.name, scopes, createdByUserId: creator.user.id });
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

/**
 * Revokes every live key a seller user created, in the transaction that removes the user from
 * the team: a key can do no more than its creator, and a removed member can do nothing.
 */
export async function revokeApiKeysCreatedBy(tx: Db, input: { merchantId: string; userId: string }): Promise<string[]> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: now() })
    .where(and(eq(apiKeys.merchantId, input.merchantId), eq(apiKeys.createdByUserId, input.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  for (const { id } of revoked) {
    await recordAudit(tx, {
      merchantId: input.merchantId,
      action: 'api_key.revoked',
      target: { kind: 'api_key', id },
      metadata: { reason: 'creator_removed' },
    });
  }
  return revoked.map((row) => row.id);
}
