#!/usr/bin/env bash
# The community feed at scale on PostgreSQL (part of `make bench`, never of `make test`):
# GET /_api/community/setups?limit=20 with 10k setups / ~100k votes, then with 1M setups /
# ~10M votes in the same database, measured the same way (wrk, 64 connections) for the
# three kinds of viewer of scripts/bench-community.sh, plus EXPLAIN ANALYZE of the page's
# query and of the pagination total at 1M. The figure to hold: p50 at 1M within 1.5x of
# the p50 at 10k (indexes, no full scans).
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust); uses a database of its own,
# setupiq_bench, dropped at the end (SETUPIQ_BENCH_KEEP=1 keeps it).
# Usage: scripts/bench-community-scale.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-community-scale.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
PHOTOS=${SETUPIQ_EVAL_PHOTOS:-../shared/photos}
DURATION=${SETUPIQ_BENCH_SECONDS:-10}
SMALL=${SETUPIQ_BENCH_SMALL_SETUPS:-10000}
LARGE=${SETUPIQ_BENCH_LARGE_SETUPS:-1000000}
USERS=20000
PG="postgres://postgres@127.0.0.1:5432"
DB=setupiq_bench

for tool in wrk curl psql; do command -v "$tool" >/dev/null || { echo "bench-community-scale: $tool is missing"; exit 1; }; done
pg_isready -h 127.0.0.1 -p 5432 -q || { echo "bench-community-scale: no PostgreSQL on 127.0.0.1:5432"; exit 1; }

work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    [ -z "${SETUPIQ_BENCH_KEEP:-}" ] && psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS $DB" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
sql() { psql -v ON_ERROR_STOP=1 -q -At "$PG/$DB" "$@"; }

psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
port=$(free_port)
base="http://127.0.0.1:$port"
serve() {
    SETUPIQ_DATA_DIR="$work/data" SETUPIQ_DATABASE_URL="$PG/$DB" SETUPIQ_BIND="127.0.0.1:$port" \
        SETUPIQ_PUBLIC_URL="$base" RUST_LOG=warn "$BIN" serve >>"$work/server.log" 2>&1 &
    server=$!
    wait_healthy "$base" "$work/server.log"
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

# Two members (one analyses a shared photo: every seeded setup shows that analysis's
# result and photo; the other reports a setup below) and the tables, made by the server.
serve
jar="$work/cookies" reporter_jar="$work/reporter-cookies"
for who in bench reporter; do
    curl -fs -c "$work/$who.jar" -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"email\":\"$who@example.com\",\"password\":\"hunter2hunter2\",\"displayName\":\"Bench$who\"}" \
        "$base/_api/auth/register_with_password"
done
cp "$work/bench.jar" "$jar" && cp "$work/reporter.jar" "$reporter_jar"
photo=$(find "$PHOTOS" -maxdepth 1 -name 'setup*.jpg' | sort | head -1)
[ -n "$photo" ] || { echo "bench-community-scale: no photo in $PHOTOS"; exit 1; }
analyze_body "$photo" >"$work/analyze.json"
curl -fs -b "$jar" -o /dev/null -H 'Content-Type: application/json' --data-binary "@$work/analyze.json" "$base/_api/analyze-setup"
stop

# Users, one analysis each (copies of the real one), then setups FROM..TO with 0-20 votes
# each (~10 on average, 70 % up) by distinct users, their kept scores, one photo each, and
# creation times spread over 60 days. Foreign keys are checked by the schema in normal
# use; the seed skips their triggers (session_replication_role) to load 10M rows quickly.
sql <<EOF
INSERT INTO users (email, username, display_name, password_hash, is_pro, role, credits, created_at, updated_at)
SELECT 'u' || g || '@bench.test', 'bench_u' || g, 'Bench ' || g, 'x', g % 10 = 0, 'user', 0,
       now() AT TIME ZONE 'utc', now() AT TIME ZONE 'utc'
FROM generate_series(1, $USERS) g;
INSERT INTO analyses (user_id, input_type, input_text, image_key, thumbnail_key, overall_tenths, analyzer, result_json, status, created_at)
SELECT u.id, a.input_type, a.input_text, a.image_key, a.thumbnail_key, a.overall_tenths, a.analyzer, a.result_json, a.status, a.created_at
FROM users u, (SELECT * FROM analyses ORDER BY id LIMIT 1) a
WHERE u.email LIKE '%@bench.test' ORDER BY u.id;
CREATE TABLE bench_authors AS
SELECT row_number() OVER (ORDER BY a.id) - 1 AS n, a.id AS analysis_id, a.user_id, a.image_key, a.thumbnail_key
FROM analyses a JOIN users u ON u.id = a.user_id WHERE u.email LIKE '%@bench.test';
CREATE UNIQUE INDEX ON bench_authors (n);
CREATE FUNCTION bench_seed(first bigint, last bigint) RETURNS void LANGUAGE sql AS \$\$
    SET LOCAL session_replication_role = replica;
    SELECT setseed(0.7);
    INSERT INTO community_votes (setup_id, user_id, value, created_at)
    SELECT s, b.user_id, CASE WHEN random() < 0.7 THEN 1 ELSE -1 END, now() AT TIME ZONE 'utc'
    FROM generate_series(first, last) s
    CROSS JOIN LATERAL generate_series(0, (s * 37 % 21) - 1) k
    JOIN bench_authors b ON b.n = (s * 7 + k * 1999) % $USERS;
    INSERT INTO community_setups (id, user_id, analysis_id, title, description, score, upvotes, open_reports, hidden, created_at, updated_at)
    SELECT s, b.user_id, b.analysis_id, 'Setup ' || s, NULL, COALESCE(v.score, 0), COALESCE(v.up, 0), 0, FALSE, t.at, t.at
    FROM generate_series(first, last) s
    JOIN bench_authors b ON b.n = s % $USERS
    LEFT JOIN (SELECT setup_id, SUM(value)::int AS score, (COUNT(*) FILTER (WHERE value = 1))::int AS up
               FROM community_votes WHERE setup_id BETWEEN first AND last GROUP BY setup_id) v ON v.setup_id = s
    CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE 'utc') - random() * interval '60 days' + s * interval '0 s' AS at) t;
    INSERT INTO community_images (setup_id, position, image_key, thumbnail_key, owned)
    SELECT s, 0, b.image_key, b.thumbnail_key, FALSE
    FROM generate_series(first, last) s JOIN bench_authors b ON b.n = s % $USERS;
    SELECT setval(pg_get_serial_sequence('community_setups', 'id'), last);
\$\$;
EOF

report_top() { # the reporter reports the top setup of all time (their page is built for them)
    local top
    top=$(curl -fs "$base/_api/community/setups?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["setups"][0]["id"])')
    curl -fs -b "$reporter_jar" -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"setupId\":$top,\"reason\":\"spam\"}" "$base/_api/community/report"
}

measure() { # STAGE -> prints a table row per viewer, keeps "p50s" in $work/p50-STAGE
    local feed="$base/_api/community/setups?limit=20" session reporter
    session=$(awk '$6 == "setupiq_session" { print $7 }' "$jar")
    reporter=$(awk '$6 == "setupiq_session" { print $7 }' "$reporter_jar")
    wrk -t2 -c64 -d2s "$feed" >/dev/null 2>&1 # warm-up
    local v s r
    v=$(run_wrk "$1-visitor" "$feed")
    s=$(run_wrk "$1-signed-in" "$feed" "Cookie: setupiq_session=$session")
    r=$(run_wrk "$1-reporter" "$feed" "Cookie: setupiq_session=$reporter")
    echo "$v|$s|$r" >"$work/p50-$1"
}

seed_to() { # N: grows the community to setups 1..N
    local from=$(( $(sql -c "SELECT COALESCE(MAX(id), 0) FROM community_setups") + 1 ))
    local started=$(date +%s)
    sql -c "SELECT bench_seed($from, $1)" >/dev/null
    sql -c "VACUUM ANALYZE" >/dev/null
    echo "== $(sql -c "SELECT COUNT(*) FROM community_setups") setups, $(sql -c "SELECT COUNT(*) FROM community_votes") votes (seeded in $(( $(date +%s) - started )) s)"
}

seed_to "$SMALL"
serve
report_top
measure small
stop

seed_to "$LARGE"
serve
measure large
echo "== the page's query and the pagination total at this size (EXPLAIN ANALYZE):"
sql <<'EOF' | grep -E 'Execution Time|Index|Seq Scan|Sort|Limit' | sed 's/^/   /'
EXPLAIN ANALYZE SELECT id FROM community_setups WHERE hidden = false
    ORDER BY score DESC, created_at DESC, id DESC LIMIT 20;
EXPLAIN ANALYZE SELECT id FROM community_setups WHERE hidden = false
    AND created_at >= (now() AT TIME ZONE 'utc') - interval '7 days'
    ORDER BY score DESC, created_at DESC, id DESC LIMIT 20;
EXPLAIN ANALYZE SELECT COUNT(*) FROM community_setups WHERE hidden = false;
EOF
stop

python3 - "$work/p50-small" "$work/p50-large" "$DURATION" "$SMALL" "$LARGE" <<'EOF'
import sys
small, large = (open(p).read().strip().split("|") for p in sys.argv[1:3])
names = ["a visitor (kept page)", "signed in (kept + own)", "a reporter (built)"]
print(f"== wrk, 64 connections, {sys.argv[3]} s each, PostgreSQL, {int(sys.argv[4]):,} vs {int(sys.argv[5]):,} setups:")
for name, a, b in zip(names, small, large):
    a, b = a.split(), b.split()
    print(f"   {name:24} {float(a[0]):>7.0f} -> {float(b[0]):>7.0f} req/s  p50 {float(a[1]):6.2f} -> {float(b[1]):6.2f} ms"
          f" ({float(b[1]) / float(a[1]):.2f}x, goal <= 1.5x)  p99 {float(a[2]):6.2f} -> {float(b[2]):6.2f} ms  non-2xx {a[3]}/{b[3]}")
EOF
