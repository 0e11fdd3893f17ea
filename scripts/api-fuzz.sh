#!/usr/bin/env bash
# Schemathesis over the whole OpenAPI document against the real binary, on SQLite and on
# PostgreSQL, anonymous and signed in: every answer must be documented, match its schema,
# and no request may get a 5xx. Bounded: SETUPIQ_FUZZ_EXAMPLES examples per operation and
# phase (default 25). Usage: scripts/api-fuzz.sh PATH_TO_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/api-fuzz.sh PATH_TO_SETUPIQ_BINARY}
EXAMPLES=${SETUPIQ_FUZZ_EXAMPLES:-25}
PG_ADMIN_URL=${SETUPIQ_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
python3 -m schemathesis.cli --version >/dev/null 2>&1 \
    || { echo "schemathesis is not installed: python3 -m pip install schemathesis==4.32.5"; exit 1; }

work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# fuzz NAME DATABASE_URL
fuzz() {
    local name=$1 url=$2 port base
    port=$(free_port)
    base="http://127.0.0.1:$port"
    mkdir -p "$work/$name"
    SETUPIQ_DATA_DIR="$work/$name" SETUPIQ_DATABASE_URL="$url" SETUPIQ_BIND="127.0.0.1:$port" \
        SETUPIQ_PUBLIC_URL="$base" SETUPIQ_SIGNUPS_PER_HOUR_PER_IP=1000000 RUST_LOG=warn \
        "$BIN" serve >"$work/$name/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do curl -fs "$base/_api/health" >/dev/null 2>&1 && break; sleep 0.1; done
    curl -fs "$base/_api/health" >/dev/null
    # A signed-in user with plenty of credits, for the second run.
    local cookie
    cookie=$(curl -fs -c - -o /dev/null -H 'Content-Type: application/json' \
        -d '{"email":"fuzz@example.com","password":"hunter2hunter2","displayName":"Fuzz"}' \
        "$base/_api/auth/register_with_password" | awk '$6 == "setupiq_session" { print $7 }')
    [ -n "$cookie" ] || { echo "could not sign up the fuzzing user"; exit 1; }
    local checks=not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance
    for who in anonymous signed-in; do
        local auth=()
        [ "$who" = signed-in ] && auth=(-H "Cookie: setupiq_session=$cookie")
        echo "== schemathesis: $name, $who, $EXAMPLES examples per operation and phase"
        if ! python3 -m schemathesis.cli run openapi/openapi.json --url "$base" "${auth[@]}" -n "$EXAMPLES" \
            --checks "$checks" --phases examples,coverage,fuzzing --generation-deterministic \
            --request-timeout 30 --no-color >"$work/$name/$who.txt" 2>&1; then
            cat "$work/$name/$who.txt"
            echo "schemathesis found failures ($name, $who); the server's log:"; tail -50 "$work/$name/server.log"
            exit 1
        fi
        grep -E "generated" "$work/$name/$who.txt" | tail -1
    done
    kill "$server"; wait "$server" 2>/dev/null || true; server=
}

fuzz sqlite "sqlite://$work/sqlite/setupiq.db"
if pg_isready -q -d "$PG_ADMIN_URL" 2>/dev/null || (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
    db="setupiq_fuzz_$$"
    psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
    fuzz postgres "${PG_ADMIN_URL%/*}/$db"
    psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $db" >/dev/null || true
elif [ "${SETUPIQ_REQUIRE_POSTGRES:-}" = 1 ]; then
    echo "PostgreSQL is required but unreachable"; exit 1
else
    echo "PostgreSQL unreachable: schemathesis ran on SQLite only"
fi
