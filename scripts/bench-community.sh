#!/usr/bin/env bash
# The community feed, measured from outside (part of `make bench`, never of `make test`):
# GET /_api/community/setups?limit=20 on SQLite holding 10k setups and 100k votes (2,000
# users), with wrk at 64 connections, side by side in one run with nginx serving the same
# JSON bytes as a static file. Three figures for the feed: a visitor's page (kept 3 s per
# process, whole), a signed-in viewer's page (the kept page with their votes and the
# current scores read per request) and the page of a viewer who reported a setup (built
# from the database for them on every request); then the signed-in page again while 10
# other clients write (8 toggling a vote, 2 editing a post: every edit makes the feed
# forget what it kept).
# Usage: scripts/bench-community.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-community.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
PHOTOS=${SETUPIQ_EVAL_PHOTOS:-../shared/photos}
DURATION=${SETUPIQ_BENCH_SECONDS:-10}
SETUPS=${SETUPIQ_BENCH_SETUPS:-10000}
VOTES=${SETUPIQ_BENCH_VOTES:-100000}

for tool in wrk nginx curl; do command -v "$tool" >/dev/null || { echo "bench-community: $tool is missing (apt-get install $tool)"; exit 1; }; done

work=$(mktemp -d)
server= nginx_pid=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
    # SETUPIQ_BENCH_KEEP=DIR keeps the seeded database there, for profiling.
    [ -n "${SETUPIQ_BENCH_KEEP:-}" ] && mkdir -p "$SETUPIQ_BENCH_KEEP" && cp -r "$work/data" "$SETUPIQ_BENCH_KEEP/"
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

port=$(free_port)
base="http://127.0.0.1:$port"
db="$work/data/setupiq.db"

# One real analysis of a shared photo: every seeded setup shows it (its result and photo).
serve_sqlite
jar="$work/cookies"
bench_member_analyses "$jar"
stop_server

started=$(date +%s)
python3 - "$db" "$SETUPS" "$VOTES" <<'EOF'
import random, sqlite3, sys
from datetime import datetime, timedelta
db, setups, votes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(7)
con = sqlite3.connect(db)
cur = con.cursor()
template = cur.execute("SELECT input_type, input_text, image_key, thumbnail_key, overall_tenths, analyzer, result_json, status, created_at FROM analyses LIMIT 1").fetchone()
# Stored as text; the fraction may have nanoseconds, Python reads microseconds.
stamp = template[8]
fmt = "%Y-%m-%d %H:%M:%S.%f"
whole, _, fraction = stamp.partition(".")
now = datetime.strptime(f"{whole}.{(fraction or '0')[:6]}", fmt)
ts = lambda t: t.strftime(fmt)
users = 2000
cur.executemany(
    "INSERT INTO users (email, username, display_name, password_hash, is_pro, role, credits, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, 'user', 0, ?, ?)",
    [(f"u{i}@bench.test", f"bench_u{i}", f"Bench {i}", i % 10 == 0, ts(now), ts(now)) for i in range(users)])
user_ids = [r[0] for r in cur.execute("SELECT id FROM users WHERE email LIKE '%@bench.test'")]
rows = []
for i in range(setups):
    created = now - timedelta(minutes=random.randint(0, 60 * 24 * 60))
    rows.append((random.choice(user_ids), created))
for user_id, created in rows:
    cur.execute("INSERT INTO analyses (user_id, input_type, input_text, image_key, thumbnail_key, overall_tenths, analyzer, result_json, status, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (user_id, *template[:8], ts(created)))
    analysis_id = cur.lastrowid
    cur.execute("INSERT INTO community_setups (user_id, analysis_id, title, description, score, upvotes, open_reports, hidden, created_at, updated_at) VALUES (?, ?, ?, NULL, 0, 0, 0, 0, ?, ?)",
                (user_id, analysis_id, f"Setup {analysis_id}", ts(created), ts(created)))
    cur.execute("INSERT INTO community_images (setup_id, position, image_key, thumbnail_key, owned) VALUES (?, 0, ?, ?, 0)",
                (cur.lastrowid, template[2], template[3]))
setup_ids = [r[0] for r in cur.execute("SELECT id FROM community_setups")]
pairs = set()
while len(pairs) < votes:
    pairs.add((random.choice(setup_ids), random.choice(user_ids)))
cur.executemany("INSERT INTO community_votes (setup_id, user_id, value, created_at) VALUES (?, ?, ?, ?)",
                [(s, u, 1 if random.random() < 0.7 else -1, ts(now)) for s, u in pairs])
cur.execute("""UPDATE community_setups SET
    score = (SELECT COALESCE(SUM(value), 0) FROM community_votes v WHERE v.setup_id = community_setups.id),
    upvotes = (SELECT COUNT(*) FROM community_votes v WHERE v.setup_id = community_setups.id AND v.value = 1)""")
con.commit()
print(f"== seeded {len(setup_ids)} setups, {len(pairs)} votes, {users} users")
EOF
echo "   (seeding took $(( $(date +%s) - started )) s)"
serve_sqlite
curl -fs -c "$jar" -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"hunter2hunter2"}' "$base/_api/auth/login_with_password"
session=$(awk '$6 == "setupiq_session" { print $7 }' "$jar")
# A second member who reported the top setup: their page leaves it out, so it is theirs alone.
reporter_jar="$work/reporter-cookies"
curl -fs -c "$reporter_jar" -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"reporter@example.com","password":"hunter2hunter2","displayName":"BenchReporter"}' \
    "$base/_api/auth/register_with_password"
top=$(curl -fs "$base/_api/community/setups?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["setups"][0]["id"])')
curl -fs -b "$reporter_jar" -o /dev/null -H 'Content-Type: application/json' \
    -d "{\"setupId\":$top,\"reason\":\"spam\"}" "$base/_api/community/report"
reporter=$(awk '$6 == "setupiq_session" { print $7 }' "$reporter_jar")
feed="$base/_api/community/setups?limit=20"
curl -fs "$feed" >"$work/feed.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["setups"]) == 20, d["pagination"]; print("== feed page:", len(d["setups"]), "setups of", d["pagination"]["total"])' "$work/feed.json"
echo "   $(wc -c <"$work/feed.json") bytes of JSON"

serve_json_with_nginx "$work/feed.json"

wrk -t2 -c64 -d2s "$feed" >/dev/null 2>&1 # warm-up
read -r v_rps v_p50 v_p99 v_err < <(run_wrk visitor "$feed")
read -r s_rps s_p50 s_p99 s_err < <(run_wrk signed-in "$feed" "Cookie: setupiq_session=$session")
read -r r_rps r_p50 r_p99 r_err < <(run_wrk reporter "$feed" "Cookie: setupiq_session=$reporter")
read -r n_rps n_p50 n_p99 n_err < <(run_wrk nginx "$nginx_url")
# Writers beside the signed-in reader: 8 connections toggle a vote (each request a write
# transaction), 2 edit the bench member's fresh post (each edit a change to the content, so
# every kept page, count and ranking is built again).
mine=$(curl -fs -b "$jar" "$base/_api/my-analyses" | python3 -c 'import json,sys; print(json.load(sys.stdin)["analyses"][0]["id"])')
post=$(curl -fs -b "$jar" -H 'Content-Type: application/json' -d "{\"analysisId\":$mine}" "$base/_api/community/setup" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["setupId"])')
post_image=$(curl -fs "$base/_api/community/setups?sort=new&limit=50" \
    | python3 -c 'import json,sys; print(next(s["images"][0] for s in json.load(sys.stdin)["setups"] if s["id"] == int(sys.argv[1])))' "$post")
# writer_script NAME PATH BODY: a wrk script that POSTs BODY to PATH as the bench member.
writer_script() {
    printf '%s\n' 'wrk.method = "POST"' "wrk.path = \"$2\"" "wrk.body = '$3'" \
        'wrk.headers["Content-Type"] = "application/json"' "wrk.headers[\"Cookie\"] = \"setupiq_session=$session\"" >"$work/$1.lua"
}
vote_body="{\"setupId\":$top,\"value\":1}"
edit_body="{\"setupId\":$post,\"title\":\"Edited under load\",\"images\":[\"$post_image\"]}"
writer_script vote /_api/community/vote "$vote_body"
writer_script edit /_api/community/setup/edit "$edit_body"
curl -fs -b "$jar" -o /dev/null -H 'Content-Type: application/json' -d "$edit_body" "$base/_api/community/setup/edit" \
    || { echo "bench-community: the edit the writers repeat was refused"; exit 1; }
wrk -t1 -c8 -d"$((DURATION + 2))s" -s "$work/vote.lua" "$base" >"$work/wrk-voters.txt" 2>&1 &
voters=$!
wrk -t1 -c2 -d"$((DURATION + 2))s" -s "$work/edit.lua" "$base" >"$work/wrk-editors.txt" 2>&1 &
editors=$!
sleep 1 # the writers are under way before the reader starts
read -r w_rps w_p50 w_p99 w_err < <(run_wrk signed-in-writes "$feed" "Cookie: setupiq_session=$session")
wait "$voters" "$editors"
writes() {
    python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
print(f"{rate:.0f} req/s, non-2xx {errors.group(1) if errors else 0}")
EOF
}

python3 - "$v_rps" "$v_p50" "$v_p99" "$v_err" "$s_rps" "$s_p50" "$s_p99" "$s_err" "$r_rps" "$r_p50" "$r_p99" "$r_err" "$n_rps" "$n_p50" "$n_p99" "$n_err" "$DURATION" "$w_rps" "$w_p50" "$w_p99" "$w_err" <<'EOF'
import sys
a = sys.argv[1:]
rows = [("setupiq, a visitor (kept page)", a[0:4]), ("setupiq, signed in (kept + own)", a[4:8]),
        ("setupiq, a reporter (built)", a[8:12]), ("nginx, the same JSON file", a[12:16]),
        ("setupiq, signed in, 10 writing", a[17:21])]
print(f"== wrk, 64 connections, {a[16]} s each, one after the other on this machine:")
for name, (rps, p50, p99, err) in rows:
    print(f"   {name:32} {float(rps):>8.0f} req/s  p50 {float(p50):6.2f} ms  p99 {float(p99):6.2f} ms  non-2xx {err}")
nginx = float(a[12])
print(f"   visitor: {float(a[0]) / nginx:.2f}x nginx, signed in: {float(a[4]) / nginx:.2f}x, reporter: {float(a[8]) / nginx:.2f}x")
print("   goals: signed in >= 0.25x nginx with p99 <= 25 ms; p99 <= 100 ms while 10 clients write")
EOF
echo "   the writers meanwhile: votes $(writes "$work/wrk-voters.txt"), edits $(writes "$work/wrk-editors.txt")"
