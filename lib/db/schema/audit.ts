import { sql } from 'drizzle-orm';
import { pgTable, text, jsonb, index } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/** Who did something: a platform admin, a seller user, an API key, a person not yet known (a failed sign-in), or the service itself. */
export type AuditActorKind = 'admin' | 'seller_user' | 'api_key' | 'anonymous' | 'system';

/**
 * Security-relevant actions of admins and sellers (docs/operations.md, "Audit log"). Written in
 * the transaction of the action it records; never holds a secret, token or password.
 * `merchant_id` is the seller account the action concerns (null for an admin's own sign-in).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text().primaryKey(),
    merchantId: text(),
    actorKind: text().notNull().$type<AuditActorKind>(),
    actorId: text(),
    /** The actor's email (seller user), name (admin), key prefix, or the identifier a failed sign-in tried. */
    actorLabel: text(),
    action: text().notNull(),
    targetKind: text(),
    targetId: text(),
    ip: text(),
    requestId: text(),
    metadata: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_action_created_idx').on(t.action, t.createdAt.desc()),
    index('audit_log_actor_created_idx').on(t.actorId, t.createdAt.desc()).where(sql`${t.actorId} is not null`),
    index('audit_log_actor_label_idx').on(sql`lower(${t.actorLabel})`, t.createdAt.desc()).where(sql`${t.actorLabel} is not null`),
    index('audit_log_target_idx').on(t.targetId, t.createdAt.desc()).where(sql`${t.targetId} is not null`),
  ],
);
