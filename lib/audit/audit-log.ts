import { and, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins, auditLog, sellerUsers } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { redactValue } from '../request-logs/redact';
import { storableText } from '../stored-text';
import type { AuditAction } from './actions';
import { currentRequestContext, type AuditActor } from './request-context';

export interface AuditEntryInput {
  /** The seller account the action concerns (null: an admin's own sign-in). */
  merchantId: string | null;
  action: AuditAction;
  target?: { kind: string; id: string };
  /** Safe facts only (names, scopes, amounts, reasons); secret-named fields are blanked regardless. */
  metadata?: Record<string, unknown>;
  /** Who acted, when it is not the request's checked credential (a sign-in names the person signing in). */
  actor?: AuditActor;
}

const LABEL_LIMIT = 320;
const IP_LIMIT = 64;

/**
 * Writes one audit entry with the request's id and client address (lib/audit/request-context.ts).
 * Call it with the transaction of the action it records, so the entry exists exactly when the
 * action happened. Outside a request (seed, jobs) the actor is the service itself.
 */
export async function recordAudit(tx: Db, entry: AuditEntryInput): Promise<void> {
  const context = currentRequestContext();
  const actor = entry.actor ?? context?.actor ?? { kind: 'system' as const };
  await tx.insert(auditLog).values({
    id: newId('auditEntry'),
    merchantId: entry.merchantId,
    actorKind: actor.kind,
    actorId: actor.id ?? null,
    // What a failed sign-in typed is text from outside (docs/operations.md, "Text kept from outside").
    actorLabel: storableText(actor.label ?? (await actorLabel(tx, actor)), LABEL_LIMIT),
    action: entry.action,
    targetKind: entry.target?.kind ?? null,
    targetId: entry.target?.id ?? null,
    ip: storableText(context?.ip, IP_LIMIT),
    requestId: context?.requestId ?? null,
    metadata: redactValue(entry.metadata ?? {}),
    createdAt: now(),
  });
}

/** A person's email or name as the log shows it, read when the credential check did not carry it. */
async function actorLabel(tx: Db, actor: AuditActor): Promise<string | null> {
  if (!actor.id) return null;
  if (actor.kind === 'seller_user') {
    const [row] = await tx.select({ email: sellerUsers.email }).from(sellerUsers).where(eq(sellerUsers.id, actor.id));
    return row?.email ?? null;
  }
  if (actor.kind === 'admin') {
    const [row] = await tx.select({ name: admins.name }).from(admins).where(eq(admins.id, actor.id));
    return row?.name ?? null;
  }
  return null;
}

export interface AuditFilters {
  action?: AuditAction;
  /** An actor's id, or its email / name (any case). */
  actor?: string;
  from?: Date;
  to?: Date;
  /** The cursor of the next (older) page: `nextCursor` of the previous one. */
  before?: string;
}

const PAGE = 50;

export type AuditEntryRow = typeof auditLog.$inferSelect;

/**
 * Audit entries, newest first, 50 a page, keyset by (time, id) so a page costs the same at any
 * depth. `merchantId: undefined` reads every seller's (and the admins' own) entries: only the
 * platform admin's pages pass that.
 */
export async function listAuditEntries(db: Db, scope: { merchantId: string | undefined }, filters: AuditFilters) {
  const where: (SQL | undefined)[] = [
    scope.merchantId === undefined ? undefined : eq(auditLog.merchantId, scope.merchantId),
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    actorCondition(filters.actor),
    filters.from ? gte(auditLog.createdAt, filters.from) : undefined,
    filters.to ? lte(auditLog.createdAt, filters.to) : undefined,
    cursorCondition(filters.before),
  ];
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(PAGE + 1);
  const last = rows[PAGE - 1];
  return { data: rows.slice(0, PAGE), nextCursor: rows.length > PAGE && last ? `${last.createdAt.toISOString()}~${last.id}` : null };
}

// An actor's id (`usr_…`, `adm_…`, `key_…`) or else its email / name, each on its own index.
function actorCondition(actor: string | undefined): SQL | undefined {
  if (!actor) return undefined;
  if (/^(usr|adm|key)_[0-9A-Z]+$/i.test(actor)) return eq(auditLog.actorId, actor);
  return sql`lower(${auditLog.actorLabel}) = lower(${actor})`;
}

function cursorCondition(cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [at, id] = cursor.split('~');
  const time = new Date(at ?? '');
  if (!id || Number.isNaN(time.getTime())) return undefined;
  return sql`(${auditLog.createdAt}, ${auditLog.id}) < (${time.toISOString()}::timestamptz, ${id})`;
}

/** A seller's suspensions and reinstatements, newest first: who, when and why. */
export async function listSuspensionHistory(db: Db, merchantId: string) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), or(eq(auditLog.action, 'merchant.suspended'), eq(auditLog.action, 'merchant.reinstated'))))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(100);
}
