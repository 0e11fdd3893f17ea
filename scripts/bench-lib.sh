# Helpers shared by the bench scripts (sourced, not run). They expect `$work`, a scratch
# directory the caller removes.

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wrk at 64 connections for $DURATION seconds: run_wrk NAME URL [HEADER] prints
# "requests/s p50_ms p99_ms non_2xx" (the full output stays in $work/wrk-NAME.txt).
run_wrk() {
    local header=()
    [ -n "${3:-}" ] && header=(-H "$3")
    wrk -t2 -c64 -d"${DURATION}s" --latency "${header[@]}" "$2" >"$work/wrk-$1.txt" 2>&1
    python3 - "$work/wrk-$1.txt" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
unit = {"us": 0.001, "ms": 1, "s": 1000}
def pct(p):
    m = re.search(rf"{p}%\s+([\d.]+)(us|ms|s)\b", text)
    return float(m.group(1)) * unit[m.group(2)]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rps:.0f} {pct(50):.2f} {pct(99):.2f} {errors.group(1) if errors else 0}")
EOF
}

# Waits up to 30 s for BASE_URL/_api/health; prints LOG and fails when it never answers.
wait_healthy() {
    for _ in $(seq 1 300); do curl -fs "$1/_api/health" >/dev/null 2>&1 && return 0; sleep 0.1; done
    cat "$2"
    return 1
}

# The JSON body of POST /_api/analyze-setup for the photo at PATH.
analyze_body() {
    python3 - "$1" <<'EOF'
import base64, json, sys
print(json.dumps({"type": "image", "value": "data:image/jpeg;base64," + base64.b64encode(open(sys.argv[1], "rb").read()).decode()}))
EOF
}

# nginx serving a copy of the JSON file PATH as a static file on a free port, for the
# side-by-side figures: serve_json_with_nginx PATH sets $nginx_pid (the caller's cleanup kills
# it) and $nginx_url (where the copy is served). Not in a subshell: it starts nginx.
serve_json_with_nginx() {
    local port name
    port=$(free_port)
    name=$(basename "$1")
    mkdir -p "$work/nginx/tmp" "$work/nginx/logs"
    cp "$1" "$work/nginx/$name"
    chmod 755 "$work" "$work/nginx" && chmod 644 "$work/nginx/$name"
    cat >"$work/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/nginx/tmp;
    proxy_temp_path $work/nginx/tmp;
    fastcgi_temp_path $work/nginx/tmp;
    uwsgi_temp_path $work/nginx/tmp;
    scgi_temp_path $work/nginx/tmp;
    server { listen 127.0.0.1:$port; root $work/nginx; default_type application/json; }
}
CONF
    nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' &
    nginx_pid=$!
    nginx_url="http://127.0.0.1:$port/$name"
    for _ in $(seq 1 50); do curl -fs "$nginx_url" >/dev/null 2>&1 && break; sleep 0.1; done
}

# Starts "$BIN serve" on $port with the SQLite database $db under $work (all set by the
# caller) and waits until it answers; its pid stays in $server for stop_server.
serve_sqlite() {
    SETUPIQ_DATA_DIR="$work/data" SETUPIQ_DATABASE_URL="sqlite://$db" SETUPIQ_BIND="127.0.0.1:$port" \
        SETUPIQ_PUBLIC_URL="$base" RUST_LOG=warn "$BIN" serve >>"$work/server.log" 2>&1 &
    server=$!
    wait_healthy "$base" "$work/server.log"
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

# Registers bench@example.com (its session in the cookie jar $1) on the server at $base and
# has it analyse the first shared setup photo of $PHOTOS: a real analysis, whose result and
# photo the bench then serves.
bench_member_analyses() {
    local jar=$1 photo
    curl -fs -c "$jar" -o /dev/null -H 'Content-Type: application/json' \
        -d '{"email":"bench@example.com","password":"hunter2hunter2","displayName":"BenchGamer"}' \
        "$base/_api/auth/register_with_password"
    photo=$(find "$PHOTOS" -maxdepth 1 -name 'setup*.jpg' | sort | head -1)
    [ -n "$photo" ] || { echo "bench: no photo in $PHOTOS"; return 1; }
    analyze_body "$photo" >"$work/analyze.json"
    curl -fs -b "$jar" -o /dev/null -H 'Content-Type: application/json' --data-binary "@$work/analyze.json" \
        "$base/_api/analyze-setup"
}
