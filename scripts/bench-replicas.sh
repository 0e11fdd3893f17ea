#!/usr/bin/env bash
# One replica against two behind nginx, on the same PostgreSQL (part of `make bench`, never
# of `make test`): wrk at 64 connections on GET /_api/auth/session (signed in: a session
# lookup) and on the community feed (GET /_api/community/setups, 40 published setups), each
#   1. straight at one replica,
#   2. at nginx in front of two replicas (round robin).
# Usage: scripts/bench-replicas.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-replicas.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
DURATION=${SETUPIQ_BENCH_SECONDS:-10}
PG=${SETUPIQ_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
PHOTOS=${SETUPIQ_EVAL_PHOTOS:-../shared/photos}

need() { command -v "$1" >/dev/null || { echo "bench-replicas: $1 is missing ($2)"; exit 1; }; }
need wrk "apt-get install wrk"
need nginx "apt-get install nginx"
need psql "apt-get install postgresql-client"

work=$(mktemp -d)
database="setupiq_bench_replicas_$$"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $database" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

psql "$PG/postgres" -qc "CREATE DATABASE $database" >/dev/null
ports=()
for name in a b; do
    port=$(free_port)
    mkdir -p "$work/$name"
    SETUPIQ_DATA_DIR="$work/$name" SETUPIQ_DATABASE_URL="$PG/$database" SETUPIQ_BIND="127.0.0.1:$port" \
        SETUPIQ_PUBLIC_URL="http://127.0.0.1:$port" SETUPIQ_TRUSTED_PROXIES=127.0.0.1/32 RUST_LOG=warn \
        "$BIN" serve >"$work/$name.log" 2>&1 &
    pids+=($!)
    wait_healthy "http://127.0.0.1:$port" "$work/$name.log"
    ports+=("$port")
done
a="http://127.0.0.1:${ports[0]}"

# A signed-in user (the session cookie for wrk) and 40 published setups in the feed, each a
# photo analysis (a post needs a photo).
photo=$(find "$PHOTOS" -maxdepth 1 -name 'setup*.jpg' | sort | head -1)
[ -n "$photo" ] || { echo "bench-replicas: no photo in $PHOTOS"; exit 1; }
analyze_body "$photo" >"$work/analyze.json"
jar="$work/cookies"
curl -fs -c "$jar" -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"hunter2hunter2","displayName":"BenchGamer"}' \
    "$a/_api/auth/register_with_password"
cookie=$(awk '!/^#/ && NF >= 7 {print $6 "=" $7}' "$jar" | head -1)
cookie=${cookie:-$(awk '/#HttpOnly_/ {print $6 "=" $7}' "$jar" | head -1)}
for i in $(seq 1 40); do
    user_jar="$work/u$i"
    curl -fs -c "$user_jar" -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"email\":\"poster$i@example.com\",\"password\":\"hunter2hunter2\",\"displayName\":\"Poster$i\"}" \
        -H "X-Forwarded-For: 10.0.$i.1" "$a/_api/auth/register_with_password"
    id=$(curl -fs -b "$user_jar" -H 'Content-Type: application/json' \
        --data-binary "@$work/analyze.json" \
        "$a/_api/analyze-setup" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("analysisId") or "")')
    [ -n "$id" ] && curl -fs -b "$user_jar" -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"analysisId\":$id,\"title\":\"Setup number $i\"}" "$a/_api/community/setup" || true
done

# nginx round robin over both replicas.
proxy_port=$(free_port)
mkdir -p "$work/nginx/tmp"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/tmp;
    proxy_temp_path $work/nginx/tmp;
    fastcgi_temp_path $work/nginx/tmp;
    uwsgi_temp_path $work/nginx/tmp;
    scgi_temp_path $work/nginx/tmp;
    upstream setupiq { server 127.0.0.1:${ports[0]}; server 127.0.0.1:${ports[1]}; keepalive 64; }
    server {
        listen 127.0.0.1:$proxy_port;
        location / {
            proxy_pass http://setupiq;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
        }
    }
}
CONF
nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' &
pids+=($!)
proxy="http://127.0.0.1:$proxy_port"
for _ in $(seq 1 50); do curl -fs "$proxy/_api/health" >/dev/null 2>&1 && break; sleep 0.1; done

total=$(curl -fs "$a/_api/community/setups?page=1&limit=12" | python3 -c "import json,sys; print(json.load(sys.stdin)[\"pagination\"][\"total\"])")
echo "== one replica vs two behind nginx, same PostgreSQL; wrk -c64 for ${DURATION} s each ($(nproc) cores; feed of $total setups)"
for endpoint in "/_api/auth/session" "/_api/community/setups?page=1&limit=12"; do
    for target in one two; do
        base=$a; [ "$target" = two ] && base=$proxy
        wrk -t2 -c64 -d2s -H "Cookie: $cookie" "$base$endpoint" >/dev/null 2>&1 # warm-up
        read -r rps p50 p99 errors < <(run_wrk "$target" "$base$endpoint" "Cookie: $cookie")
        printf '   %-40s %-22s %8s req/s  p50 %7s ms  p99 %7s ms  non-2xx %s\n' \
            "$endpoint" "$([ "$target" = one ] && echo 'one replica' || echo 'two behind nginx')" \
            "$rps" "$p50" "$p99" "$errors"
    done
done
