#!/usr/bin/env bash
# The backup/restore drill of docs/operations.md ("Backups and restore"): Paybase on an external
# PostgreSQL, data made through the API, pg_dump -Fc while it runs, pg_restore into a new
# database, Paybase on the restore. DRILL_POSTGRES_URL: a superuser URL without a database name.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${DRILL_POSTGRES_URL:-postgres://postgres:drill-password@127.0.0.1:5432}
D=$(mktemp -d)
psql "$BASE/postgres" -qc 'drop database if exists paybase_drill with (force)' -c 'create database paybase_drill'
start() { # $1 db, $2 port
  DATABASE_URL=$BASE/$1 PORT=$2 DATA_DIR=$D/data-$1 SEED_DEMO=true SECRET_KEY=drill-secret-key-0123456789abcdefghij LOG_LEVEL=warn API_RATE_LIMIT=100000 node --import tsx scripts/start.ts > $D/server-$1.log 2>&1 &
  echo $! > $D/pid-$1
  for i in $(seq 1 120); do grep -q "Press Ctrl-C" $D/server-$1.log && return 0; sleep 1; done; cat $D/server-$1.log; return 1
}
stop() { kill -TERM $(cat $D/pid-$1); while kill -0 $(cat $D/pid-$1) 2>/dev/null; do sleep 0.5; done; }
start paybase_drill 3411
KEY=$(grep -oP 'Demo API key\s+\K\S+' $D/server-paybase_drill.log)
api() { curl -s -X "$1" "http://127.0.0.1:$2$3" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' ${4:+-d "$4"} ${5:+-H "Idempotency-Key: $5"}; }
PRODUCT=$(api POST 3411 /api/Product '{"name":"Drill"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
PRICE=$(api POST 3411 /api/Price "{\"productId\":\"$PRODUCT\",\"type\":\"OneTime\",\"amount\":2500,\"currency\":\"USD\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
MONTHLY=$(api POST 3411 /api/Price "{\"productId\":\"$PRODUCT\",\"type\":\"Recurring\",\"amount\":900,\"currency\":\"USD\",\"interval\":\"month\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
for i in $(seq 1 20); do
  OUT=$(api POST 3411 /api/Checkout "{\"priceId\":\"$PRICE\",\"customerEmail\":\"drill-$i@example.com\",\"tokenRef\":\"tok_visa\"}" drill-$i)
  if [ "$i" = 1 ]; then echo "original checkout: $(echo "$OUT" | node -pe 'const b=JSON.parse(require("fs").readFileSync(0)); b.paid+" "+b.id')"; fi
done
for i in $(seq 1 5); do api POST 3411 /api/Checkout "{\"priceId\":\"$MONTHLY\",\"customerEmail\":\"sub-$i@example.com\",\"tokenRef\":\"tok_visa\"}" sub-$i > /dev/null; done
count() { psql "$BASE/$1" -Atc "select (select count(*) from payments)||' payments, '||(select count(*) from subscriptions)||' subscriptions, '||(select count(*) from customers)||' customers, '||(select count(*) from events)||' events, '||(select coalesce(sum(amount),0) from payments where status='succeeded')||' minor units'"; }
echo "before: $(count paybase_drill)"
# The backup, taken while the service runs (pg_dump reads one consistent snapshot).
T0=$(date +%s.%N); pg_dump -Fc -f $D/paybase.dump "$BASE/paybase_drill"; T1=$(date +%s.%N)
echo "dump: $(du -h $D/paybase.dump | cut -f1), $(echo "$T1 - $T0" | bc) s"
stop paybase_drill
psql "$BASE/postgres" -qc 'drop database if exists paybase_restored with (force)' -c 'create database paybase_restored'
T0=$(date +%s.%N); pg_restore --no-owner -d "$BASE/paybase_restored" $D/paybase.dump; T1=$(date +%s.%N)
echo "restore: $(echo "$T1 - $T0" | bc) s"
echo "restored: $(count paybase_restored)"
start paybase_restored 3412
echo "ready: $(curl -s http://127.0.0.1:3412/api/health/ready)"
echo "replayed checkout: $(api POST 3412 /api/Checkout "{\"priceId\":\"$PRICE\",\"customerEmail\":\"drill-1@example.com\",\"tokenRef\":\"tok_visa\"}" drill-1 | node -pe 'const b=JSON.parse(require("fs").readFileSync(0)); b.paid+" "+b.id')"
echo "new checkout: $(api POST 3412 /api/Checkout "{\"priceId\":\"$PRICE\",\"customerEmail\":\"after@example.com\",\"tokenRef\":\"tok_visa\"}" after-1 | node -pe 'const b=JSON.parse(require("fs").readFileSync(0)); b.paid+" "+b.id')"
echo "after: $(count paybase_restored)"
stop paybase_restored
