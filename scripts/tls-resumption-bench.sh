#!/usr/bin/env bash
# TLS session resumption on NativeHTTPClient: new TLS connections per second and CPU per connection with resumption
# on and off, in one process and the same run, against a private nginx on loopback that closes every connection
# (`keepalive_timeout 0`, so each request is a new connection: the `Connection: close` workload). TLS 1.3 and 1.2.
# See BENCHMARKS.md.
#
# Usage: scripts/tls-resumption-bench.sh [REQUESTS_PER_ROUND] [ROUNDS]   (defaults 500 and 5; bounded: 300 s at most)
# Builds Benchmarks/ in release (TLSResumptionBench), makes a throwaway CA and server certificate with `openssl`,
# starts nginx (stopped by its PID on exit), prints the table and the on/off ratios.
# Needs nginx (apt-get install -y nginx-light), openssl and python3.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

requests="${1:-500}"
rounds="${2:-5}"
WORK="$ROOT/.ci-work/tls-resumption-bench"
rm -rf "$WORK"
mkdir -p "$WORK/html"
echo "hello" >"$WORK/html/hello.txt"

make_test_ca "$WORK" "Bench CA"

port13="$(free_port)"
port12="$(free_port)"
server_block() {
    local port="$1" protocols="$2"
    cat <<BLOCK
    server {
        listen 127.0.0.1:$port ssl;
        ssl_protocols $protocols;
        ssl_certificate $WORK/server.pem;
        ssl_certificate_key $WORK/server.key;
        ssl_session_cache shared:bench:1m;
        keepalive_timeout 0;
        root $WORK/html;
        add_header X-Session-Reused \$ssl_session_reused always;
    }
BLOCK
}
mapfile -t command < <(nginx_conf "$WORK/nginx" "$(server_block "$port13" "TLSv1.2 TLSv1.3")
$(server_block "$port12" "TLSv1.2")")
[ ${#command[@]} -gt 0 ] || exit 1

echo "building Benchmarks (release)..." >&2
swift build -c release --package-path Benchmarks --product TLSResumptionBench >"$WORK/build.log" 2>&1 \
    || { tail -20 "$WORK/build.log" >&2; die "the release build failed"; }
binary="$(swift build -c release --package-path Benchmarks --show-bin-path)/TLSResumptionBench"

"${command[@]}" &
NGINX_PID=$!
trap 'stop_pid "$NGINX_PID"' EXIT
wait_until 100 "$NGINX_PID" port_accepts "$port13" || die "nginx did not start"
wait_until 100 "$NGINX_PID" port_accepts "$port12" || die "nginx did not start"

echo "nginx $("$(nginx_binary)" -v 2>&1 | sed 's/.*\///'), $(openssl version | cut -d' ' -f1-2), $(nproc) CPUs" >&2
timeout 300 "$binary" "$WORK/ca.pem" "$port13" "$port12" "$requests" "$rounds"
