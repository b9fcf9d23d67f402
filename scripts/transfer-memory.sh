#!/usr/bin/env bash
# Peak memory of a 1 GiB download to a file, a 1 GiB upload from a file and a 1 GiB response body streamed and read
# chunk by chunk (`apiClient.stream`), through BothamAPIClient with the default URLSessionHTTPClient and with
# NativeHTTPClient (the TransferMemory executable of the Benchmarks/ package), measured with /usr/bin/time -v.
#
#   scripts/transfer-memory.sh            # 1 GiB each way; fails when a peak RSS exceeds LIMIT_MIB (64), or a
#                                         # streamed one STREAM_LIMIT_MIB (32) for a transport in STREAM_GATED
#   SIZE_MIB=256 scripts/transfer-memory.sh
#   TRANSPORTS=native scripts/transfer-memory.sh   # one transport (urlsession, native)
#   MODES=stream scripts/transfer-memory.sh        # some of: download upload stream
#
# stream: `TransferMemory stream URL -` reads GET /big.bin through `stream(…).body`, counts the chunks and bytes
# (it fails unless all of the Content-Length arrived) and writes each chunk to a pipe into sha256sum, which must give
# the file's SHA-256. Next to it the same program streams a 1 KiB file: the process baseline of that transport.
# STREAM_GATED (default: native) lists the transports whose streamed peak fails the run when it is above
# STREAM_LIMIT_MIB; the others are measured and reported against it only, because a URLSessionHTTPClient process
# is above 32 MiB before it streams anything (FoundationNetworking, libcurl).
#
# Servers, on loopback, free ports, private prefix in a temporary folder, stopped by PID on exit:
# - download: nginx (Debian's nginx-light; `apt-get install -y nginx-light` if missing) serving a random file;
# - upload: a small Python sink that reads the whole body in 1 MiB pieces, hashes it and answers with the byte count
#   and SHA-256, so the script checks that the server really read every byte.
# Needs `time` (`apt-get install -y time`) for /usr/bin/time.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SIZE_MIB="${SIZE_MIB:-1024}"
LIMIT_MIB="${LIMIT_MIB:-64}"
TRANSPORTS="${TRANSPORTS:-urlsession native}"
MODES="${MODES:-download upload stream}"
STREAM_LIMIT_MIB="${STREAM_LIMIT_MIB:-32}"
STREAM_GATED="${STREAM_GATED:-native}"

[[ -n "$(nginx_binary)" ]] || die "nginx not found: apt-get install -y nginx-light"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install -y time"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/botham-transfer-memory.XXXXXX")"
SINK_PID=""
cleanup() {
    stop_pid "$NGINX_PID"
    stop_pid "$SINK_PID"
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "Building TransferMemory (release, in the Benchmarks/ package)…" >&2
(cd "$ROOT/Benchmarks" && nice swift build -c release --product TransferMemory 2>&1 | grep -E "error|warning:" >&2 \
    || true)
BIN="$(cd "$ROOT/Benchmarks" && swift build -c release --show-bin-path)/TransferMemory"
[[ -x "$BIN" ]] || die "TransferMemory was not built"

echo "Creating a ${SIZE_MIB} MiB random file…" >&2
mkdir -p "$WORK/www"
dd if=/dev/urandom of="$WORK/www/big.bin" bs=1M count="$SIZE_MIB" status=none
head -c 1024 /dev/urandom > "$WORK/www/small.bin"
EXPECTED_SHA="$(sha256sum "$WORK/www/big.bin" | cut -d' ' -f1)"
EXPECTED_BYTES=$((SIZE_MIB * 1024 * 1024))

NGINX_PORT="$(free_port)"
nginx_start "$WORK" "$WORK/www" "$NGINX_PORT"

SINK_PORT="$(free_port)"
cat > "$WORK/sink.py" <<'PY'
import hashlib, http.server, json, sys

class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        remaining = int(self.headers.get("Content-Length", "0"))
        digest, count = hashlib.sha256(), 0
        while remaining > 0:
            piece = self.rfile.read(min(remaining, 1 << 20))
            if not piece:
                break
            digest.update(piece)
            count += len(piece)
            remaining -= len(piece)
        body = json.dumps({"bytes": count, "sha256": digest.hexdigest()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = lambda self: (self.send_response(204), self.send_header("Content-Length", "0"), self.end_headers())

    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
PY
if [[ " $MODES " == *" upload "* ]]; then
    python3 "$WORK/sink.py" "$SINK_PORT" &
    SINK_PID=$!
    wait_for_url "http://127.0.0.1:$SINK_PORT/" || die "no server at http://127.0.0.1:$SINK_PORT/"
fi

peak_mib() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1"; }
within() { awk -v peak="$1" -v limit="$2" 'BEGIN { exit !(peak <= limit) }'; }
STATUS=0
ROWS=()
STREAM_ROWS=()

for TRANSPORT in $TRANSPORTS; do
    export TRANSFER_MEMORY_TRANSPORT="$TRANSPORT"
    if [[ " $MODES " == *" download "* ]]; then
        echo "Download ($TRANSPORT): ${SIZE_MIB} MiB from nginx to a file" >&2
        /usr/bin/time -v "$BIN" download "http://127.0.0.1:$NGINX_PORT/big.bin" "$WORK/download.bin" \
            > "$WORK/download.out" 2> "$WORK/download.time" \
            || { cat "$WORK/download.out" "$WORK/download.time"; die "download failed ($TRANSPORT)"; }
        cat "$WORK/download.out"
        DOWNLOAD_SHA="$(sha256sum "$WORK/download.bin" | cut -d' ' -f1)"
        [[ "$DOWNLOAD_SHA" == "$EXPECTED_SHA" ]] || { echo "download ($TRANSPORT): the file differs" >&2; STATUS=1; }
        DOWNLOAD_PEAK="$(peak_mib "$WORK/download.time")"
        rm -f "$WORK/download.bin"
        ROWS+=("| $TRANSPORT | download to a file (nginx) | $DOWNLOAD_PEAK | $(wall "$WORK/download.time") | SHA-256 of the file |")
        within "$DOWNLOAD_PEAK" "$LIMIT_MIB" \
            || { echo "$TRANSPORT: download peak RSS $DOWNLOAD_PEAK MiB is above $LIMIT_MIB MiB" >&2; STATUS=1; }
    fi

    if [[ " $MODES " == *" upload "* ]]; then
        echo "Upload ($TRANSPORT): ${SIZE_MIB} MiB from a file to the sink" >&2
        /usr/bin/time -v "$BIN" upload "http://127.0.0.1:$SINK_PORT/upload" "$WORK/www/big.bin" \
            > "$WORK/upload.out" 2> "$WORK/upload.time" \
            || { cat "$WORK/upload.out" "$WORK/upload.time"; die "upload failed ($TRANSPORT)"; }
        cat "$WORK/upload.out"
        grep -q "\"bytes\": $EXPECTED_BYTES, \"sha256\": \"$EXPECTED_SHA\"" "$WORK/upload.out" \
            || { echo "upload ($TRANSPORT): the server did not receive every byte intact" >&2; STATUS=1; }
        UPLOAD_PEAK="$(peak_mib "$WORK/upload.time")"
        ROWS+=("| $TRANSPORT | upload from a file (sink) | $UPLOAD_PEAK | $(wall "$WORK/upload.time") | byte count and SHA-256 read by the server |")
        within "$UPLOAD_PEAK" "$LIMIT_MIB" \
            || { echo "$TRANSPORT: upload peak RSS $UPLOAD_PEAK MiB is above $LIMIT_MIB MiB" >&2; STATUS=1; }
    fi

    if [[ " $MODES " == *" stream "* ]]; then
        echo "Stream ($TRANSPORT): 1 KiB (baseline), then ${SIZE_MIB} MiB from nginx, read chunk by chunk" >&2
        /usr/bin/time -v "$BIN" stream "http://127.0.0.1:$NGINX_PORT/small.bin" \
            > "$WORK/stream-base.out" 2> "$WORK/stream-base.time" \
            || { cat "$WORK/stream-base.out" "$WORK/stream-base.time"; die "stream baseline failed ($TRANSPORT)"; }
        BASE_PEAK="$(peak_mib "$WORK/stream-base.time")"
        # The body goes through a pipe into sha256sum; time -v writes to a file, the program's report to stderr.
        if ! /usr/bin/time -v -o "$WORK/stream.time" "$BIN" stream "http://127.0.0.1:$NGINX_PORT/big.bin" - \
            2> "$WORK/stream.out" | sha256sum > "$WORK/stream.sha"; then
            cat "$WORK/stream.out" "$WORK/stream.time"
            die "stream failed ($TRANSPORT)"
        fi
        cat "$WORK/stream.out"
        grep -q "received $EXPECTED_BYTES bytes" "$WORK/stream.out" \
            || { echo "stream ($TRANSPORT): not every byte arrived" >&2; STATUS=1; }
        [[ "$(cut -d' ' -f1 "$WORK/stream.sha")" == "$EXPECTED_SHA" ]] \
            || { echo "stream ($TRANSPORT): the bytes differ (SHA-256)" >&2; STATUS=1; }
        STREAM_PEAK="$(peak_mib "$WORK/stream.time")"
        OVER="$(awk -v peak="$STREAM_PEAK" -v base="$BASE_PEAK" 'BEGIN { printf "%+.1f", peak - base }')"
        CHUNKS="$(sed -n 's/.* in \([0-9]*\) chunks (largest \([0-9]*\)).*/\1 chunks, largest \2 B/p' "$WORK/stream.out")"
        ROWS+=("| $TRANSPORT | streamed body read chunk by chunk (nginx) | $STREAM_PEAK | $(wall "$WORK/stream.time") | byte count and SHA-256 of the chunks ($CHUNKS) |")
        if within "$STREAM_PEAK" "$STREAM_LIMIT_MIB"; then MET=yes; else MET=NO; fi
        if [[ " $STREAM_GATED " == *" $TRANSPORT "* ]]; then
            GATED=yes
            [[ "$MET" == yes ]] \
                || { echo "$TRANSPORT: streamed peak RSS $STREAM_PEAK MiB is above $STREAM_LIMIT_MIB MiB" >&2; STATUS=1; }
        else
            GATED="no (not in STREAM_GATED)"
        fi
        STREAM_ROWS+=("| $TRANSPORT | $BASE_PEAK | $STREAM_PEAK | $OVER | $MET | $GATED |")
    fi
done

echo
echo "| Transport | Transfer (${SIZE_MIB} MiB, loopback) | Peak RSS (MiB) | Wall clock | Bytes verified |"
echo "|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
if [[ ${#STREAM_ROWS[@]} -gt 0 ]]; then
    echo
    echo "| Transport | Baseline: 1 KiB streamed (MiB) | ${SIZE_MIB} MiB streamed (MiB) | Over baseline | ≤ $STREAM_LIMIT_MIB MiB | Gated (fails the run when above) |"
    echo "|---|---|---|---|---|---|"
    printf '%s\n' "${STREAM_ROWS[@]}"
fi
exit "$STATUS"
