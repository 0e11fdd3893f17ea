#!/usr/bin/env bash
# The public RigPage, measured from outside (part of `make bench`, never of `make test`):
#   1. Lighthouse (npm `lighthouse`, Debian Chromium) on /rig/{slug} as a phone: the
#      performance score (goal >= 0.98) and the bytes of JavaScript shipped (goal <= 10 KB);
#   2. wrk at 64 connections on /rig/{slug}, side by side in one run with nginx serving the
#      same HTML as a static file: requests per second and p99 (goal >= 0.5x nginx).
# The page is a real one: a user signs up, analyses a shared photo with the embedded
# analyzer, and publishes a page with 8 links. Views are counted (a phone's User-Agent).
# Usage: scripts/bench-rigpage.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-rigpage.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
PHOTOS=${SETUPIQ_EVAL_PHOTOS:-../shared/photos}
DURATION=${SETUPIQ_BENCH_SECONDS:-10}
PHONE_UA='Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0'

need() { command -v "$1" >/dev/null || { echo "bench-rigpage: $1 is missing ($2)"; exit 1; }; }
need wrk "apt-get install wrk"
need nginx "apt-get install nginx"
need chromium "apt-get install chromium"
need curl "apt-get install curl"

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
SETUPIQ_DATA_DIR="$work/data" SETUPIQ_DATABASE_URL="sqlite://$work/data/setupiq.db" SETUPIQ_BIND="127.0.0.1:$port" \
    SETUPIQ_PUBLIC_URL="$base" RUST_LOG=warn "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
wait_healthy "$base" "$work/server.log"

# A creator with a real analysed photo and a live page.
jar="$work/cookies"
curl -fs -c "$jar" -o /dev/null -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"hunter2hunter2","displayName":"BenchGamer"}' \
    "$base/_api/auth/register_with_password"
photo=$(find "$PHOTOS" -maxdepth 1 -name 'setup*.jpg' | sort | head -1)
[ -n "$photo" ] || { echo "bench-rigpage: no photo in $PHOTOS"; exit 1; }
analyze_body "$photo" >"$work/analyze.json"
analysis=$(curl -fs -b "$jar" -H 'Content-Type: application/json' --data-binary "@$work/analyze.json" \
    "$base/_api/analyze-setup" | python3 -c 'import json,sys; print(json.load(sys.stdin)["analysisId"])')
python3 - "$analysis" >"$work/config.json" <<'EOF'
import json, sys
links = [{"label": f"My link number {i}", "url": f"https://example.com/{i}",
          "section": "Gear" if i < 4 else None} for i in range(8)]
print(json.dumps({"rigpageEnabled": True, "rigpageSlug": "bench_rig", "rigpageSetupId": int(sys.argv[1]),
                  "rigpageTagline": "Clean cables, loud keys", "rigpageBio": "FPS grinder. Desk nerd.",
                  "rigpageSocialLinks": {"twitch": "https://twitch.tv/bench", "youtube": "https://youtube.com/@bench"},
                  "rigpageTheme": "dark_neon", "fontStyle": "gaming", "buttonStyle": "outline",
                  "showSetupInBackground": True, "backgroundBlur": 5, "backgroundOpacity": 100,
                  "sections": ["Gear"], "links": links}))
EOF
curl -fs -b "$jar" -o /dev/null -H 'Content-Type: application/json' --data-binary "@$work/config.json" \
    "$base/_api/rigpage/config"
page="$base/rig/bench_rig"
curl -fs -A "$PHONE_UA" "$page" >"$work/page.html"
echo "== /rig/{slug}: $(wc -c <"$work/page.html") bytes of HTML, $(grep -c '<script' "$work/page.html" || true) script tags"

# 1. Lighthouse, mobile (its default form factor and throttling).
lh="$work/lighthouse"
npm install --silent --no-audit --no-fund --prefix "$lh" lighthouse@12 >/dev/null 2>&1 \
    || { echo "bench-rigpage: npm could not install lighthouse"; exit 1; }
CHROME_PATH=$(command -v chromium) "$lh/node_modules/.bin/lighthouse" "$page" --quiet \
    --only-categories=performance --output=json --output-path="$work/lh.json" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu" >/dev/null 2>&1 \
    || { echo "bench-rigpage: lighthouse failed"; exit 1; }
python3 - "$work/lh.json" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
audits = report["audits"]
score = report["categories"]["performance"]["score"]
items = audits["network-requests"]["details"]["items"]
js = sum(i.get("transferSize", 0) for i in items if i.get("resourceType") == "Script")
total = sum(i.get("transferSize", 0) for i in items)
print(f"== Lighthouse (mobile): performance {score:.2f} (goal >= 0.98), JavaScript {js} bytes (goal <= 10240), "
      f"{len(items)} requests, {total} bytes in all")
for key in ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"]:
    print(f"   {audits[key]['title']}: {audits[key]['displayValue']}")
EOF

# 2. Throughput beside nginx serving the same bytes.
nginx_port=$(free_port)
mkdir -p "$work/nginx/rig" "$work/nginx/logs"
cp "$work/page.html" "$work/nginx/rig/bench_rig"
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path $work/nginx/tmp;
    proxy_temp_path $work/nginx/tmp;
    fastcgi_temp_path $work/nginx/tmp;
    uwsgi_temp_path $work/nginx/tmp;
    scgi_temp_path $work/nginx/tmp;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/nginx;
        default_type text/html;
    }
}
EOF
mkdir -p "$work/nginx/tmp"
# nginx's workers drop root: let them read the page.
chmod 755 "$work" "$work/nginx" "$work/nginx/rig" && chmod 644 "$work/nginx/rig/bench_rig"
nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$nginx_port/rig/bench_rig" >/dev/null 2>&1 && break; sleep 0.1; done
cmp -s <(curl -fs "http://127.0.0.1:$nginx_port/rig/bench_rig") "$work/page.html" || { echo "nginx does not serve the page"; exit 1; }

wrk -t2 -c64 -d2s -H "User-Agent: $PHONE_UA" "$page" >/dev/null 2>&1 # warm-up
read -r ours_rps _ ours_p99 ours_err < <(run_wrk setupiq "$page" "User-Agent: $PHONE_UA")
read -r nginx_rps _ nginx_p99 nginx_err < <(run_wrk nginx "http://127.0.0.1:$nginx_port/rig/bench_rig" "User-Agent: $PHONE_UA")
python3 - "$ours_rps" "$ours_p99" "$ours_err" "$nginx_rps" "$nginx_p99" "$nginx_err" "$DURATION" <<'EOF'
import sys
ours, ours_p99, ours_err, nginx, nginx_p99, nginx_err, seconds = sys.argv[1:]
ours, nginx = float(ours), float(nginx)
print(f"== wrk, 64 connections, {seconds} s each, one after the other on this machine:")
print(f"   setupiq /rig/{{slug}}: {ours:>9.0f} req/s, p99 {float(ours_p99):7.2f} ms, non-2xx {ours_err}")
print(f"   nginx static file:    {nginx:>9.0f} req/s, p99 {float(nginx_p99):7.2f} ms, non-2xx {nginx_err}")
print(f"   ratio: {ours / nginx:.2f}x nginx (goal >= 0.5x)")
EOF
# Every view by a phone is counted (in memory, flushed in batches): the stats say so.
curl -fs -b "$jar" "$base/_api/rigpage/stats" | python3 -c 'import json,sys; s=json.load(sys.stdin); print("   views counted (wrk sends a phone User-Agent):", s["views"])'
