#!/usr/bin/env bash
# Runs BothamBenchmarks (a release build of the Benchmarks/ package) against a private nginx on loopback.
# See BENCHMARKS.md.
#
# Usage: scripts/bench.sh [--install] [--quick] [--size-mib N] [--sse-events N] [BothamBenchmarks options...]
#   --install       apt-get install -y nginx-light wrk when nginx or wrk is missing
#   --quick         CI smoke (< 60 s of benchmarking): fewer runs, a 256 MiB transfer file, 1 s slow server
#   --size-mib N    size of the transfer file (default 1024, i.e. 1 GiB; quick 256)
#   --sse-events N  events in the text/event-stream file of the streaming case (default 2000000, ~41 MB;
#                   quick 500000)
# Anything else is passed to BothamBenchmarks (e.g. --cases chain,transport --runs 7).
# Results: the table on stdout and JSON in .build/bench-results.json.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

install=0
quick=0
size_mib=""
sse_events=""
passthrough=()
while [ $# -gt 0 ]; do
    case "$1" in
        --install) install=1 ;;
        --quick) quick=1; passthrough+=(--quick) ;;
        --size-mib) size_mib="$2"; shift ;;
        --sse-events) sse_events="$2"; shift ;;
        *) passthrough+=("$1") ;;
    esac
    shift
done
if [ -z "$size_mib" ]; then
    if [ "$quick" = 1 ]; then size_mib=256; else size_mib=1024; fi
fi
if [ -z "$sse_events" ]; then
    if [ "$quick" = 1 ]; then sse_events=500000; else sse_events=2000000; fi
fi

nginx_bin="$(nginx_binary)"
if [ -z "$nginx_bin" ] || ! command -v wrk >/dev/null; then
    if [ "$install" = 1 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light wrk >/dev/null
        nginx_bin="$(nginx_binary)"
    fi
fi

echo "== build (release; the benchmarks' own package, Benchmarks/Package.swift, into Benchmarks/.build)"
mkdir -p .build
if ! nice swift build -c release --package-path Benchmarks --product BothamBenchmarks >.build/bench-build.log 2>&1; then
    grep -E "error|warning:" .build/bench-build.log | sort -u
    exit 1
fi
binary="$(swift build -c release --package-path Benchmarks --show-bin-path)/BothamBenchmarks"

work="$(mktemp -d /tmp/botham-bench.XXXXXX)"
cleanup() {
    stop_pid "$NGINX_PID"
    rm -rf "$work"
}
trap cleanup EXIT

server_args=()
if [ -n "$nginx_bin" ]; then
    mkdir -p "$work/www"
    printf '{"id":1,"name":"BothamNetworking","tags":["api","client","swift"],"stars":42,"open":true}\n' \
        >"$work/www/small.json"
    # Sparse: instant to create, read back as zeros at page-cache speed (nginx does not compress it).
    truncate -s "${size_mib}M" "$work/www/large.bin"
    truncate -s 1M "$work/www/medium.bin"
    # The streaming case: N small Server-Sent Events (`data: {"i":N}`, ~20 bytes each) served as text/event-stream.
    python3 -c 'import sys; sys.stdout.write("".join("data: {\"i\":%d}\n\n" % i for i in range(int(sys.argv[1]))))' \
        "$sse_events" >"$work/www/events.sse"
    port="$(free_port)"
    h2_port="$(free_port)"
    while [ "$h2_port" = "$port" ]; do h2_port="$(free_port)"; done
    # The same files on a second port speaking cleartext HTTP/2 (prior knowledge): the http2 case.
    nginx_start "$work" "$work/www" "$port" "    server {
        listen 127.0.0.1:$h2_port http2;
        root $work/www;
    }
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    types { application/json json; application/octet-stream bin; text/event-stream sse; }
    default_type application/octet-stream;"
    curl -fsS -o /dev/null "http://127.0.0.1:$port/small.json"
    echo "== nginx $("$nginx_bin" -v 2>&1 | sed 's/.*\///') on 127.0.0.1:$port (pid $NGINX_PID), transfer file ${size_mib} MiB, ${sse_events} events"
    if command -v wrk >/dev/null; then
        # The server's ceiling on this machine right now: the clients below should be far from it.
        seconds=3; [ "$quick" = 1 ] && seconds=1
        echo "== wrk -t1 -c16 -d${seconds}s (server ceiling)"
        wrk -t1 -c16 -d"${seconds}s" "http://127.0.0.1:$port/small.json" | grep -E "Requests/sec|Latency"
    fi
    server_args=(--url "http://127.0.0.1:$port/small.json" --large-url "http://127.0.0.1:$port/large.bin"
        --medium-url "http://127.0.0.1:$port/medium.bin" --h2-url "http://127.0.0.1:$h2_port/small.json"
        --h2-medium-url "http://127.0.0.1:$h2_port/medium.bin"
        --upload-file "$work/www/large.bin" --events-url "http://127.0.0.1:$port/events.sse")
else
    echo "== nginx not found (run with --install): transport, transfer and streaming throughput cases are skipped"
fi

echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(swift --version 2>&1 | head -1)"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $binary ${server_args[*]} --json .build/bench-results.json ${passthrough[*]}"
start=$SECONDS
BENCH_SERVER_PIDS="${NGINX_PID:-}" "$binary" "${server_args[@]}" --json .build/bench-results.json "${passthrough[@]}"
echo "== benchmark time: $((SECONDS - start)) s"
