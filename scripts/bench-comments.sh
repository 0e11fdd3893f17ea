#!/usr/bin/env bash
# Comments and the bell, measured from outside (part of `make bench`, never of `make test`):
# on SQLite, one setup holding 500 comments (100 threads of a comment and 4 replies, from 100
# members) and a member with 500 notifications (50 unread). With wrk at 64 connections, one
# after the other in one run: a page of the thread as a visitor reads it (50 threads with their
# replies: 250 of the 500 comments, the page the setup's dialog loads), nginx serving the same JSON bytes
# as a static file, the bell of a signed-in member (GET /_api/notifications/unread, asked every
# minute) and their list (GET /_api/notifications?limit=10).
# Goal (issue 30): the bell's p99 <= 20 ms.
# Usage: scripts/bench-comments.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-comments.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
PHOTOS=${SETUPIQ_EVAL_PHOTOS:-../shared/photos}
DURATION=${SETUPIQ_BENCH_SECONDS:-10}

for tool in wrk nginx curl; do command -v "$tool" >/dev/null || { echo "bench-comments: $tool is missing (apt-get install $tool)"; exit 1; }; done

work=$(mktemp -d)
server= nginx_pid=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

port=$(free_port)
base="http://127.0.0.1:$port"
db="$work/data/setupiq.db"

# The bench member analyses a real photo and publishes it: the setup everyone talks under.
serve_sqlite
jar="$work/cookies"
bench_member_analyses "$jar"
analysis=$(curl -fs -b "$jar" "$base/_api/my-analyses" | python3 -c 'import json,sys; print(json.load(sys.stdin)["analyses"][0]["id"])')
setup=$(curl -fs -b "$jar" -H 'Content-Type: application/json' -d "{\"analysisId\":$analysis}" "$base/_api/community/setup" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["setupId"])')
stop_server

python3 - "$db" "$setup" <<'PY'
import sqlite3, sys
from datetime import datetime, timedelta
db, setup = sys.argv[1], int(sys.argv[2])
con = sqlite3.connect(db)
cur = con.cursor()
now = datetime.utcnow()
ts = lambda t: t.strftime("%Y-%m-%d %H:%M:%S.%f")
owner = cur.execute("SELECT user_id FROM community_setups WHERE id = ?", (setup,)).fetchone()[0]
cur.executemany(
    "INSERT INTO users (email, username, display_name, password_hash, is_pro, role, credits, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, 'user', 0, ?, ?)",
    [(f"c{i}@bench.test", f"bench_c{i}", f"Commenter {i}", i % 10 == 0, ts(now), ts(now)) for i in range(100)])
members = [r[0] for r in cur.execute("SELECT id FROM users WHERE email LIKE '%@bench.test'")]
comments = []
for t in range(100):
    at = now - timedelta(minutes=600 - t * 5)
    cur.execute("INSERT INTO community_comments (setup_id, parent_id, user_id, body, deleted, created_at) VALUES (?, NULL, ?, ?, 0, ?)",
                (setup, members[t], f"Thread {t}: what monitor arm is that? It looks like a solid one for a 34 inch ultrawide.", ts(at)))
    thread = cur.lastrowid
    comments.append(thread)
    for r in range(4):
        cur.execute("INSERT INTO community_comments (setup_id, parent_id, user_id, body, deleted, created_at) VALUES (?, ?, ?, ?, 0, ?)",
                    (setup, thread, members[(t + r + 1) % 100], f"Reply {r}: an Ergotron LX, clamped behind the desk.", ts(at + timedelta(minutes=r + 1))))
        comments.append(cur.lastrowid)
rows = [(owner, "comment", members[i % 100], setup, comments[i % len(comments)], ts(now - timedelta(minutes=1000 - i)), None if i >= 950 else ts(now))
        for i in range(1000)]
# One notification per recipient and comment: of 1,000 drawn over the 500 comments, the later 500 stay.
rows = list({(r[0], r[4]): r for r in rows}.values())
cur.executemany("INSERT INTO notifications (user_id, kind, actor_id, setup_id, comment_id, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
con.commit()
print(f"== seeded 500 comments under setup {setup} ({len(comments)} rows), {len(rows)} notifications for its owner")
PY
serve_sqlite
curl -fs -c "$jar" -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"hunter2hunter2"}' "$base/_api/auth/login_with_password"
session=$(awk '$6 == "setupiq_session" { print $7 }' "$jar")
thread="$base/_api/community/comments?setupId=$setup&limit=50"
curl -fs "$thread" >"$work/thread.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["comments"]; n=sum(1+len(c["replies"]) for c in t); print(f"== thread page: {len(t)} threads, {n} comments")' "$work/thread.json"
echo "   $(wc -c <"$work/thread.json") bytes of JSON"
bell="$base/_api/notifications/unread"
list="$base/_api/notifications?limit=10"
curl -fs -b "$jar" "$list" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("== bell:", d["unread"], "unread of", d["pagination"]["total"])'

serve_json_with_nginx "$work/thread.json"

wrk -t2 -c64 -d2s "$thread" >/dev/null 2>&1 # warm-up
read -r t_rps t_p50 t_p99 t_err < <(run_wrk thread "$thread")
read -r n_rps n_p50 n_p99 n_err < <(run_wrk nginx "$nginx_url")
read -r b_rps b_p50 b_p99 b_err < <(run_wrk bell "$bell" "Cookie: setupiq_session=$session")
read -r l_rps l_p50 l_p99 l_err < <(run_wrk list "$list" "Cookie: setupiq_session=$session")
python3 - "$t_rps" "$t_p50" "$t_p99" "$t_err" "$n_rps" "$n_p50" "$n_p99" "$n_err" "$b_rps" "$b_p50" "$b_p99" "$b_err" "$DURATION" "$l_rps" "$l_p50" "$l_p99" "$l_err" <<'PY'
import sys
a = sys.argv[1:]
rows = [("setupiq, a thread page (visitor)", a[0:4]), ("nginx, the same JSON file", a[4:8]), ("setupiq, the bell's count", a[8:12]),
        ("setupiq, the notification list", a[13:17])]
print(f"== wrk, 64 connections, {a[12]} s each, one after the other on this machine:")
for name, (rps, p50, p99, err) in rows:
    print(f"   {name:34} {float(rps):>8.0f} req/s  p50 {float(p50):6.2f} ms  p99 {float(p99):6.2f} ms  non-2xx {err}")
print(f"   thread: {float(a[0]) / float(a[4]):.2f}x nginx; the bell's p99 {float(a[10]):.1f} ms (goal <= 20 ms)")
PY
