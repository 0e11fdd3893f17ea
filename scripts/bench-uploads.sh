#!/usr/bin/env bash
# Image uploads under attack, measured from outside (part of `make bench`, never of
# `make test`), against the release binary on a fresh SQLite database:
#
#   1. the time to refuse a 12000x12000 PNG and a WebP decompression bomb (goal < 0.5 s);
#   2. 150 connections that each send ~14 MB of an analysis body and hold back its last
#      byte: the server's peak RSS meanwhile (goal < 600 MiB) and the latency of normal
#      requests (the feed, the health check, a signed-in text analysis) during the flood;
#   3. one account flooding the image work (12 RigPage uploads of a 12 MP picture and 6 photo
#      analyses at once): another user's text analysis latency meanwhile, and what the
#      flood was answered;
#   4. big pictures at once, the server's peak RSS during each (goal < 400 MiB whatever
#      arrives): one member's 12 RigPage uploads of a 40 MP picture, 4 members x 3 of a
#      40 MP picture with transparency, and 4 members' photo analyses of a 40 MP picture.
#
# Usage: scripts/bench-uploads.sh PATH_TO_RELEASE_SETUPIQ_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/bench-uploads.sh PATH_TO_RELEASE_SETUPIQ_BINARY}

work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh

port=$(free_port)
base="http://127.0.0.1:$port"
SETUPIQ_DATA_DIR="$work/data" SETUPIQ_DATABASE_URL="sqlite://$work/data/setupiq.db" SETUPIQ_BIND="127.0.0.1:$port" \
    SETUPIQ_PUBLIC_URL="$base" SETUPIQ_MODELS_DIR="$PWD/models" SETUPIQ_SIGNUPS_PER_HOUR_PER_IP=100 SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP=100 RUST_LOG=warn \
    "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
wait_healthy "$base" "$work/server.log"

python3 - "$port" "$server" <<'PYEOF'
import asyncio, base64, io, json, struct, sys, threading, time, urllib.request, zlib, http.cookiejar

port, pid = int(sys.argv[1]), int(sys.argv[2])
base = f"http://127.0.0.1:{port}"

def rss_mib(field="VmRSS"):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0

class Browser:
    def __init__(self):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    def call(self, path, body=None, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
        started = time.perf_counter()
        try:
            with self.opener.open(req, timeout=timeout) as res:
                res.read(); status = res.status
        except urllib.error.HTTPError as e:
            e.read(); status = e.code
        return status, time.perf_counter() - started

def signed_up(email):
    b = Browser()
    status, _ = b.call("/_api/auth/register_with_password", {"email": email, "password": "correct horse battery", "displayName": "Bench"})
    assert status in (200, 201), status
    return b

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png_header(w, h):
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))

def webp_bomb(w, h):
    vp8l = b"\x2f" + struct.pack("<I", (w - 1) | ((h - 1) << 14)) + b"\0" * 5
    return b"RIFF" + struct.pack("<I", 4 + 8 + len(vp8l)) + b"WEBPVP8L" + struct.pack("<I", len(vp8l)) + vp8l

def gradient_png(w, h, alpha=False):
    """A picture that compresses well (a small file that takes real work to decode); with
    `alpha`, RGBA whose transparency fades from left to right."""
    channels = 4 if alpha else 3
    reds = bytes((x // 16) & 255 for x in range(w))
    alphas = bytes(255 - (x * 255 // max(w - 1, 1)) for x in range(w))
    def row(y):
        r = bytearray(channels * w); r[0::channels] = reds; r[1::channels] = bytes([(y // 12) & 255]) * w
        r[2::channels] = b"\x5a" * w
        if alpha:
            r[3::4] = alphas
        return b"\0" + bytes(r)
    rows = b"".join(row(y) for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(rows, 6)) + png_chunk(b"IEND", b"")

def data_url(mime, data):
    return f"data:{mime};base64," + base64.b64encode(data).decode()

TIDY = ("A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, a mechanical keyboard, "
        "RGB light strips behind the monitor, cables hidden in a cable tray and a Herman Miller chair.")

print(f"idle RSS: {rss_mib():.0f} MiB")

# 1. Bombs.
bomber = signed_up("bomber@example.com")
for name, url in [("12000x12000 PNG", data_url("image/png", png_header(12000, 12000))),
                  ("12000x12000 WebP bomb", data_url("image/webp", webp_bomb(12000, 12000)))]:
    for path, body in [("/_api/analyze-setup", {"type": "image", "value": url}),
                       ("/_api/rigpage/images", {"kind": "background", "imageData": url})]:
        status, took = bomber.call(path, body)
        print(f"bomb: {name} to {path}: {status} in {took * 1000:.1f} ms")

# 2. 150 slow uploads of ~14 MB that hold back their last byte.
patient = signed_up("patient@example.com")
BODY = 13_900_000  # ~14 MB: a 10 MB photo as base64, just under the endpoint's JSON limit
payload = (b'{"type":"image","value":"data:image/jpeg;base64,' + b"A" * (BODY - 60)).ljust(BODY - 2, b"A") + b'"}'
head = (f"POST /_api/analyze-setup HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n").encode()
peak = [rss_mib()]
answers = {}
stop = threading.Event()

def sample():
    while not stop.is_set():
        peak[0] = max(peak[0], rss_mib()); time.sleep(0.05)

async def slow_upload(i):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head)
        for at in range(0, len(payload) - 1, 256 * 1024):
            writer.write(payload[at:min(at + 256 * 1024, len(payload) - 1)])
            await writer.drain()
            if reader.at_eof() or reader._buffer:
                break
        line = await asyncio.wait_for(reader.readline(), timeout=60)
        code = line.split()[1].decode() if len(line.split()) > 1 else "closed"
    except (ConnectionError, asyncio.TimeoutError, IndexError):
        code = "closed"
    finally:
        writer.close()
    answers[code] = answers.get(code, 0) + 1

def normal_requests(results):
    while not stop.is_set():
        for path in ["/_api/health", "/_api/community/setups"]:
            results.append(Browser().call(path)[1])
        time.sleep(0.1)

async def flood():
    return await asyncio.gather(*(slow_upload(i) for i in range(150)))

sampler = threading.Thread(target=sample); sampler.start()
latencies = []
normal = threading.Thread(target=normal_requests, args=(latencies,)); normal.start()
started = time.perf_counter()
loop_thread = threading.Thread(target=lambda: asyncio.run(flood())); loop_thread.start()
time.sleep(5)
text_status, text_took = patient.call("/_api/analyze-setup", {"type": "text", "value": TIDY})
loop_thread.join()
stop.set(); sampler.join(); normal.join()
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print(f"slow uploads: 150 x {BODY / 1e6:.1f} MB holding their last byte: answers {answers} in {time.perf_counter() - started:.1f} s")
print(f"slow uploads: peak RSS {peak[0]:.0f} MiB (VmHWM {rss_mib('VmHWM'):.0f} MiB; goal < 600)")
print(f"slow uploads: normal requests meanwhile: {len(latencies)} answered, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1000:.1f} ms")
print(f"slow uploads: a signed-in text analysis meanwhile: {text_status} in {text_took * 1000:.0f} ms")

# 3. One account floods the image work.
flooder = signed_up("flooder@example.com")
other = signed_up("other@example.com")
heavy = data_url("image/png", gradient_png(4000, 3000))
results = []
def flood_one(path, body):
    results.append(flooder.call(path, body)[0])
threads = [threading.Thread(target=flood_one, args=("/_api/rigpage/images", {"kind": "background", "imageData": heavy})) for _ in range(12)]
threads += [threading.Thread(target=flood_one, args=("/_api/analyze-setup", {"type": "image", "value": heavy})) for _ in range(6)]
for t in threads: t.start()
time.sleep(0.3)
status, took = other.call("/_api/analyze-setup", {"type": "text", "value": TIDY})
for t in threads: t.join()
counts = {s: results.count(s) for s in sorted(set(results))}
print(f"account flood: another user's text analysis: {status} in {took * 1000:.0f} ms; the flood was answered {counts}")

# 4. Big pictures at once: what the image work holds in memory.
def peak_rss_while(calls):
    """Runs (browser, path, body) calls at once; the peak RSS meanwhile and the answers."""
    answers, peak, done = [], [rss_mib()], threading.Event()
    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib()); time.sleep(0.02)
    sampler = threading.Thread(target=sample); sampler.start()
    started = time.perf_counter()
    workers = [threading.Thread(target=lambda c=c: answers.append(c[0].call(c[1], c[2], timeout=300)[0])) for c in calls]
    for t in workers: t.start()
    for t in workers: t.join()
    done.set(); sampler.join()
    return peak[0], {s: answers.count(s) for s in sorted(set(answers))}, time.perf_counter() - started

def settle():
    """Waits for the allocator to give back what the last scenario freed (jemalloc's decay)."""
    time.sleep(12)
    return rss_mib()

big = data_url("image/png", gradient_png(8000, 5000))
big_alpha = data_url("image/png", gradient_png(8000, 5000, alpha=True))
print(f"big pictures: 40 MP PNG {len(big) / 1e6:.1f} MB, with transparency {len(big_alpha) / 1e6:.1f} MB as data URLs")
one = signed_up("big-one@example.com")
members = [signed_up(f"big-member{i}@example.com") for i in range(4)]
analysts = [signed_up(f"big-analyst{i}@example.com") for i in range(4)]
scenarios = [
    ("one member's 12 RigPage uploads of a 40 MP picture",
     [(one, "/_api/rigpage/images", {"kind": "background", "imageData": big})] * 12),
    ("4 members x 3 RigPage uploads of a 40 MP picture with transparency",
     [(m, "/_api/rigpage/images", {"kind": "background", "imageData": big_alpha}) for m in members for _ in range(3)]),
    ("4 members' photo analyses of a 40 MP picture",
     [(a, "/_api/analyze-setup", {"type": "image", "value": big}) for a in analysts]),
]
for name, calls in scenarios:
    before = settle()
    peak, answers, took = peak_rss_while(calls)
    print(f"big pictures: {name}: peak RSS {peak:.0f} MiB (from {before:.0f}; goal < 400), answered {answers} in {took:.1f} s")
print(f"peak RSS over the whole run (VmHWM): {rss_mib('VmHWM'):.0f} MiB")
PYEOF
