-- Keys made before keys recorded their creator: the audit log names who created each one. Only
-- creators still on the seller's team are recorded (a key of a member removed earlier keeps
-- working as before, bounded by its scopes alone; its Owner can revoke it).
UPDATE "api_keys" AS k
SET "created_by_user_id" = a."actor_id"
FROM "audit_log" AS a
JOIN "seller_users" AS u ON u."id" = a."actor_id"
WHERE k."created_by_user_id" IS NULL
  AND a."action" = 'api_key.created'
  AND a."actor_kind" = 'seller_user'
  AND a."target_kind" = 'api_key'
  AND a."target_id" = k."id"
  AND u."merchant_id" = k."merchant_id";
