#!/usr/bin/env bash
# The home page on a first visit, measured from outside (part of `make bench`, never of
# `make test`): Lighthouse 13 (npm `lighthouse`, Debian Chromium) on / of a fresh server
# as a phone (its default form factor and throttling), no cookies, nothing cached.
# Prints the performance score (goal >= 0.95), first and largest contentful paint, total
# blocking time, cumulative layout shift (goal <= 0.1) and the bytes of JavaScript, as
# sent and uncompressed. Lighthouse runs $SETUPIQ_LIGHTHOUSE_RUNS times (default 3); the
# run with the median score is reported. The web app is built first (`make frontend`), so
# what is measured is the tree as it is.
# Usage: scripts/bench-home.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-home.sh PATH_TO_RELEASE_SETUPIQ_BINARY}
RUNS=${SETUPIQ_LIGHTHOUSE_RUNS:-3}

need() { command -v "$1" >/dev/null || { echo "bench-home: $1 is missing ($2)"; exit 1; }; }
need chromium "apt-get install chromium"
need curl "apt-get install curl"
need npm "install Node.js 20+"

work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

make --no-print-directory frontend >"$work/frontend.log" 2>&1 || { cat "$work/frontend.log"; exit 1; }

port=$(free_port)
base="http://127.0.0.1:$port"
SETUPIQ_DATA_DIR="$work/data" SETUPIQ_DATABASE_URL="sqlite://$work/data/setupiq.db" SETUPIQ_BIND="127.0.0.1:$port" \
    SETUPIQ_PUBLIC_URL="$base" SETUPIQ_FRONTEND_DIR="$PWD/frontend/dist" RUST_LOG=warn "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
wait_healthy "$base" "$work/server.log"

lh="$work/lighthouse"
npm install --silent --no-audit --no-fund --prefix "$lh" lighthouse@13 >/dev/null 2>&1 \
    || { echo "bench-home: npm could not install lighthouse"; exit 1; }
for run in $(seq 1 "$RUNS"); do
    CHROME_PATH=$(command -v chromium) "$lh/node_modules/.bin/lighthouse" "$base/" --quiet \
        --only-categories=performance --output=json --output-path="$work/lh-$run.json" \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu" >/dev/null 2>&1 \
        || { echo "bench-home: lighthouse failed"; exit 1; }
done
python3 - "$work"/lh-*.json <<'EOF'
import json, sys
reports = sorted((json.load(open(path)) for path in sys.argv[1:]), key=lambda r: r["categories"]["performance"]["score"])
report = reports[len(reports) // 2]
audits = report["audits"]
score = report["categories"]["performance"]["score"]
scripts = [i for i in audits["network-requests"]["details"]["items"] if i.get("resourceType") == "Script"]
sent = sum(i.get("transferSize", 0) for i in scripts)
raw = sum(i.get("resourceSize", 0) for i in scripts)
cls = audits["cumulative-layout-shift"]["numericValue"]
scores = ", ".join(f"{r['categories']['performance']['score']:.2f}" for r in reports)
print(f"== Lighthouse 13 (mobile) on / (the median of {len(reports)} runs: {scores}):")
print(f"   performance {score:.2f} (goal >= 0.95), cumulative layout shift {cls:.3f} (goal <= 0.1)")
for key in ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index"]:
    print(f"   {audits[key]['title']}: {audits[key]['displayValue']}")
print(f"   JavaScript: {len(scripts)} files, {sent} bytes sent, {raw} bytes uncompressed")
# What moved, when something did: the element to look at first.
for item in (audits.get("layout-shifts", {}).get("details") or {}).get("items", [])[:3]:
    node = item.get("node") or {}
    print(f"   layout shift {item.get('score', 0):.3f}: {node.get('selector', '?')} {node.get('snippet', '')[:100]}")
EOF
