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
