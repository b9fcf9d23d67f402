#!/usr/bin/env bash
# WebSocket benchmark (#35): echo round trips per second, CPU per message and round-trip latency of NativeHTTPClient's
# WebSockets through BothamAPIClient (Benchmarks/WebSocketBench, release) against PyPI's `websockets` client
# (scripts/ws_bench_client.py, asyncio) measured in the same run against the same server; then the peak RSS of a
# WebSocketBench process reading 1 GiB of 64 KiB messages slower than the server sends them.
#
#   scripts/ws-bench.sh                 3 runs of 3 s per case and client, 1 GiB streamed (about 4 minutes)
#   scripts/ws-bench.sh --quick         CI smoke: 1 run of 1 s per case, 256 MiB streamed (< 60 s once built)
#   scripts/ws-bench.sh --runs 5 --seconds 5 --workers 2 --stream-mib 1024
#   scripts/ws-bench.sh --quick --no-build   # use the WebSocketBench already built
#
# Cases: 64 B and 64 KiB binary messages, over 1 socket and over 64 sockets at once (send, await the echo, repeat, on
# every socket). Clients, rotated run by run so that load that comes and goes hits each: `swift` (the calling tasks
# prefer the client's event loop, NativeHTTPClient.taskExecutor), `swift-offloop` (the tasks on the cooperative pool,
# a thread hop each way), `python` (websockets 17.4, .venv-ws). Neither client offers permessage-deflate.
#
# The server both talk to in a case: for 64 B, Node.js with Debian's `ws` (scripts/ws_echo_server.js; apt-get install -y
# nodejs node-ws), one process unless --workers N (node's cluster module); for 64 KiB, websockets' server
# (scripts/ws_app.py, /nodeflate), whose C masking costs a quarter of node's JavaScript masking there. Its CPU (/proc/PID/stat of it and its children, user +
# system) is measured around every client run and reported per message, with the cores client and server used
# together: on a 2-core machine the two share the CPU, so when they use about 2 cores the ratio of two clients is
# bounded by (their CPU + the server's CPU per message) over (ours + the server's), whatever the clients do.
#
# Memory: `WebSocketBench stream ws://NODE/count?n=N --pause-every 4 --pause-ms 1` under /usr/bin/time -v (16,384
# messages of 64 KiB: 1 GiB; the consumer sleeps 1 ms every 4 messages, at most 256 MiB/s), next to the same program
# reading 1 message (the process's baseline). Target ≤ 32 MiB (STREAM_LIMIT_MIB); a peak above it fails the run, and
# so does any failed client run. Results: the table on stdout, the raw RESULT lines in .build/ws-bench-results.txt.
#
# Needs node with `ws`, python3 (a venv with websockets==17.4 is made in .venv-ws when missing, as
# scripts/ws-servers.sh does), /usr/bin/time (apt-get install -y time) and the Swift toolchain.
# BENCH_BUILD_LOCK=FILE builds under `flock FILE` (for machines where builds share a lock).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=3
SECONDS_PER_RUN=3
WARMUP=0.5
WORKERS=1
STREAM_MIB=1024
STREAM_LIMIT_MIB="${STREAM_LIMIT_MIB:-32}"
CLIENT_TIMEOUT=120
BUILD_FIRST=1
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) RUNS=1 SECONDS_PER_RUN=1 WARMUP=0.2 STREAM_MIB=256 CLIENT_TIMEOUT=30 ;;
    --runs) RUNS="$2"; shift ;;
    --seconds) SECONDS_PER_RUN="$2"; shift ;;
    --workers) WORKERS="$2"; shift ;;
    --stream-mib) STREAM_MIB="$2"; shift ;;
    --no-build) BUILD_FIRST=0 ;;
    *) die "unknown option $1 (--quick, --runs N, --seconds S, --workers N, --stream-mib N, --no-build)" ;;
    esac
    shift
done

export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
command -v node >/dev/null || die "node not found: apt-get install -y nodejs node-ws"
node -e "require('ws')" 2>/dev/null || die "node cannot load ws from NODE_PATH=$NODE_PATH: apt-get install -y node-ws"
[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install -y time"
VENV="$ROOT/.venv-ws"
ensure_ws_venv "$VENV"
PY_VERSION="$("$VENV/bin/python" -c 'import websockets, sys; print(websockets.__version__, sys.version.split()[0])')"

if [ "$BUILD_FIRST" = 1 ]; then
    echo "Building WebSocketBench (release, in the Benchmarks/ package)…" >&2
    BUILD=(swift build -c release --package-path "$ROOT/Benchmarks" --product WebSocketBench)
    if [ -n "${BENCH_BUILD_LOCK:-}" ]; then BUILD=(flock "$BENCH_BUILD_LOCK" "${BUILD[@]}"); fi
    "${BUILD[@]}" 2>&1 | grep -E "error|warning:" >&2 || true
fi
BIN="$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)/WebSocketBench"
[ -x "$BIN" ] || die "WebSocketBench was not built"

BENCH_STARTED=$SECONDS
WORK="$(mktemp -d "${TMPDIR:-/tmp}/botham-ws-bench.XXXXXX")"
SERVER_PID=""
PY_SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then stop_pid "$SERVER_PID"; fi
    if [ -n "$PY_SERVER_PID" ]; then stop_pid "$PY_SERVER_PID"; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(free_port)"
start_server node "$PORT" node "$ROOT/scripts/ws_echo_server.js" "$PORT" "$WORKERS"
SERVER_PID="$(cat "$WORK/node.pid")"
# The workers (when --workers > 1) need a moment to listen after the primary does.
if [ "$WORKERS" -gt 1 ]; then sleep 1; fi
URL="ws://127.0.0.1:$PORT"
PY_PORT="$(free_port)"
start_server websockets "$PY_PORT" "$VENV/bin/python" "$ROOT/scripts/ws_app.py" "$PY_PORT"
PY_SERVER_PID="$(cat "$WORK/websockets.pid")"
PY_URL="ws://127.0.0.1:$PY_PORT"

# The CPU so far of server PID, in clock ticks: the process and its live children (the cluster's workers).
server_ticks() {
    local total=0 pid fields
    for pid in "$1" $(cat /proc/"$1"/task/*/children 2>/dev/null); do
        fields="$(sed 's/.*) //' /proc/"$pid"/stat 2>/dev/null)" || continue
        # After the command name: field 14 (utime) and 15 (stime) of stat(5) are the 12th and 13th here.
        total=$((total + $(echo "$fields" | awk '{print $12 + $13}')))
    done
    echo "$total"
}
TICKS="$(getconf CLK_TCK)"
# Every CPU's busy time so far (user, nice, system, irq, softirq, steal of /proc/stat), in clock ticks.
machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }

RESULTS="$WORK/results.txt"
: >"$RESULTS"
FAILED=0
CLIENTS=(swift swift-offloop python)
CASES=("64 1" "65536 1" "64 64" "65536 64")
echo "Server: node $(node --version), ws $(node -p "require('ws/package.json').version"), $WORKERS process(es)," \
    "127.0.0.1:$PORT; baseline: websockets $PY_VERSION" >&2
echo "Machine: $(nproc) CPUs, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((run = 1; run <= RUNS; run++)); do
    for case in "${CASES[@]}"; do
        read -r size connections <<<"$case"
        # The server that serves the case with the least CPU (measured: BENCHMARKS.md): node's ws masks in
        # JavaScript (Debian ships no bufferutil), about 230 µs of server CPU per 64 KiB round trip; websockets'
        # C masking takes about 60 µs there, but 24 µs per 64 B round trip where node takes 11–17 µs.
        if [ "$size" -ge 4096 ]; then
            server=websockets echo_url="$PY_URL/nodeflate" pid="$PY_SERVER_PID"
        else
            server=node echo_url="$URL/echo" pid="$SERVER_PID"
        fi
        for ((k = 0; k < ${#CLIENTS[@]}; k++)); do
            client="${CLIENTS[$(((k + run - 1) % ${#CLIENTS[@]}))]}"
            common=(--size "$size" --connections "$connections" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP")
            case "$client" in
            swift) command=("$BIN" echo "$echo_url" "${common[@]}") ;;
            swift-offloop) command=("$BIN" echo "$echo_url" "${common[@]}" --off-loop) ;;
            python) command=("$VENV/bin/python" "$ROOT/scripts/ws_bench_client.py" "$echo_url" "${common[@]}") ;;
            esac
            before="$(server_ticks "$pid")"
            busy_before="$(machine_ticks)"
            started="$(date +%s.%N)"
            if line="$(timeout "$CLIENT_TIMEOUT" "${command[@]}" 2>"$WORK/client.err" | grep '^RESULT')"; then
                after="$(server_ticks "$pid")"
                busy_after="$(machine_ticks)"
                elapsed="$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')"
                echo "$line server=$server run=$run" \
                    "server_cpu_s=$(awk -v t=$((after - before)) -v hz="$TICKS" 'BEGIN {print t / hz}')" \
                    "machine_busy_s=$(awk -v t=$((busy_after - busy_before)) -v hz="$TICKS" 'BEGIN {print t / hz}')" \
                    "elapsed_s=$elapsed" \
                    | tee -a "$RESULTS" >&2
            else
                echo "FAILED: $client size=$size connections=$connections run=$run: $(cat "$WORK/client.err")" >&2
                FAILED=1
            fi
        done
    done
done

# Peak RSS while STREAM_MIB of 64 KiB messages stream through a slow consumer; the baseline reads one message.
MESSAGES=$((STREAM_MIB * 16))
STREAM_ROW=""
for n in 1 "$MESSAGES"; do
    echo "Stream: $n message(s) of 64 KiB from $URL/count, read slowly" >&2
    if /usr/bin/time -v -o "$WORK/stream.time" timeout 600 "$BIN" stream "$URL/count?n=$n" --pause-every 4 \
        --pause-ms 1 >"$WORK/stream.out" 2>&1; then
        peak="$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$WORK/stream.time")"
        echo "$(grep '^RESULT' "$WORK/stream.out") peak_rss_mib=$peak" | tee -a "$RESULTS" >&2
    else
        echo "FAILED: stream of $n messages: $(cat "$WORK/stream.out")" >&2
        FAILED=1
    fi
done

mkdir -p "$ROOT/.build"
cp "$RESULTS" "$ROOT/.build/ws-bench-results.txt"
python3 - "$RESULTS" "$STREAM_LIMIT_MIB" "$RUNS" <<'PY' || FAILED=1
import statistics, sys

path, limit, runs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rows = []
for line in open(path):
    fields = dict(item.split("=", 1) for item in line.split()[1:])
    rows.append(fields)
echo = [r for r in rows if r.get("mode") != "stream"]
stream = [r for r in rows if r.get("mode") == "stream"]

def server_per_message(r):
    # The server's CPU spans the client's whole process (connects, warm-up, measured window, closes): per round trip
    # of the warm-up and the window together, the connects and closes counted in.
    return float(r["server_cpu_s"]) * 1e6 / (int(r["messages"]) + int(r["warmup_messages"]))


def med(values):
    return statistics.median(values) if values else float("nan")

def span(values):
    return f"{med(values):.2f}x [{min(values):.2f}–{max(values):.2f}]" if values else "n/a"

cases = sorted({(int(r["size"]), int(r["connections"])) for r in echo}, key=lambda c: (c[1], c[0]))
clients = ["swift", "swift-offloop", "python"]
print()
print(f"Medians of {runs} run(s); cores used = (client CPU + server CPU) / wall time; other processes = the machine's "
      "busy time less both, over each client's life (what else ran: on 2 cores, anything above ~0.2 skews the row).")
print()
print("| size | sockets | server | client | msgs/s | client CPU µs/msg | server CPU µs/msg | cores used | other processes (cores) | p50 µs | p99 µs |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
by = {}
for size, connections in cases:
    for client in clients:
        mine = [r for r in echo if r["client"] == client and int(r["size"]) == size
                and int(r["connections"]) == connections]
        if not mine:
            continue
        by[(size, connections, client)] = {int(r["run"]): r for r in mine}
        rate = med([float(r["msgs_per_s"]) for r in mine])
        cpu = med([float(r["cpu_us_per_msg"]) for r in mine])
        server = med([server_per_message(r) for r in mine])
        cores = med([float(r["cpu_cores"]) + server_per_message(r) * float(r["msgs_per_s"]) / 1e6 for r in mine])
        # What the rest of the machine did meanwhile: its busy time over the client's whole process, less the
        # client's (its measured share scaled to the process's life) and the server's.
        others = med([max(0.0, float(r.get("machine_busy_s", "nan")) - float(r["server_cpu_s"])
                           - float(r["cpu_cores"]) * float(r.get("elapsed_s", "nan"))) / float(r.get("elapsed_s", "nan"))
                      for r in mine])
        p50 = med([float(r["p50_us"]) for r in mine])
        p99 = med([float(r["p99_us"]) for r in mine])
        label = "64 KiB" if size == 65536 else f"{size} B"
        print(f"| {label} | {connections} | {mine[0]['server']} | {client} | {rate:,.0f} | {cpu:.1f} | {server:.1f} | "
              f"{cores:.2f} | {others:.2f} | {p50:.0f} | {p99:.0f} |")
print()
print("Ratios against python, median [min–max] of the per-run ratios (run i over run i). Target: msgs/s ≥ 10x, "
      "CPU per message below python's.")
print()
print("| size | sockets | client | msgs/s ratio | CPU/msg ratio | ≥ 10x msgs/s | less CPU/msg | bound on the msgs/s ratio "
      "when the 2 cores are the limit |")
print("|---|---|---|---|---|---|---|---|")
for size, connections in cases:
    base = by.get((size, connections, "python"), {})
    for client in ("swift", "swift-offloop"):
        mine = by.get((size, connections, client), {})
        pairs = [(mine[run], base[run]) for run in mine if run in base]
        if not pairs:
            continue
        rates = [float(a["msgs_per_s"]) / float(b["msgs_per_s"]) for a, b in pairs]
        cpus = [float(a["cpu_us_per_msg"]) / float(b["cpu_us_per_msg"]) for a, b in pairs]
        # (python's CPU + the server's, per message) over (ours + the server's while serving us)
        def per(r):
            return float(r["cpu_us_per_msg"]) + server_per_message(r)
        bound = med([per(b) / per(a) for a, b in pairs])
        label = "64 KiB" if size == 65536 else f"{size} B"
        print(f"| {label} | {connections} | {client} | {span(rates)} | {span(cpus)} | "
              f"{'yes' if med(rates) >= 10 else 'NO'} | {'yes' if med(cpus) < 1 else 'NO'} | {bound:.1f}x |")
status = 0
if stream:
    print()
    print(f"| streamed through a slow consumer | messages | MiB/s | peak RSS (MiB, /usr/bin/time -v) | over the "
          f"1-message baseline (MiB) | ≤ {limit:g} MiB |")
    print("|---|---|---|---|---|---|")
    base = next((float(r["peak_rss_mib"]) for r in stream if int(r["messages"]) == 1), float("nan"))
    for r in stream:
        peak = float(r["peak_rss_mib"])
        met = peak <= limit
        mib = int(r["bytes"]) / 1048576
        what = "baseline: 1 message" if int(r["messages"]) == 1 else f"{mib:,.0f} MiB of 64 KiB messages"
        print(f"| {what} | {r['messages']} | {float(r['mib_per_s']):.0f} | {peak:.1f} | {peak - base:+.1f} | "
              f"{'yes' if met else 'NO'} |")
        if not met and int(r["messages"]) > 1:
            status = 1
sys.exit(status)
PY
echo "Benchmarking took $((SECONDS - BENCH_STARTED)) s (build excluded)." >&2
[ "$FAILED" = 0 ] || die "a client run failed or a target that fails the run was missed (above)"
