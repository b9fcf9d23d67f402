# Helpers shared by the scripts: `source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"` (bash; set -euo pipefail first).
#
#   ROOT                          the repository root (absolute)
#   die MESSAGE…                  prints "<script>: MESSAGE" to stderr and exits 1
#   free_port                     prints a TCP port free on 127.0.0.1 right now
#   wait_until TENTHS PID COMMAND…
#                                 runs COMMAND every 0.1 s until it succeeds; fails after TENTHS × 0.1 s, or at once
#                                 when PID (unless empty) is no longer running: a server that died is not waited for
#   wait_for_url URL [TENTHS] [PID]
#                                 returns once URL answers at all (any status, each try at most 1 s), or fails after
#                                 TENTHS × 0.1 s (100) or when PID (if given) has exited
#   nginx_binary                  prints the nginx executable ($NGINX if set, then PATH, then /usr/sbin/nginx), or
#                                 nothing
#   port_accepts PORT             succeeds when something accepts TCP connections on 127.0.0.1:PORT (1 s at most)
#   start_server NAME PORT COMMAND…
#                                 runs COMMAND in the background (output in $WORK/NAME.out, PID in $WORK/NAME.pid;
#                                 the caller sets WORK) and waits up to 15 s until PORT accepts; its output and exit 1
#                                 when it dies or does not
#   nginx_conf DIR HTTP_BLOCK     writes DIR/nginx.conf for a private nginx (prefix, logs, pid and temporary files
#                                 under DIR, access log off, sendfile on) whose `http` block ends with HTTP_BLOCK (its
#                                 `server` blocks and any directive); prints the command that runs it in the
#                                 foreground, one argument per line
#   nginx_start DIR ROOT PORT [HTTP_DIRECTIVES]
#                                 writes, with nginx_conf, a private nginx serving ROOT on 127.0.0.1:PORT, with
#                                 HTTP_DIRECTIVES added to its `http` block; starts it in the foreground of a
#                                 background job, sets NGINX_PID and waits until it answers (its error log and exit 1
#                                 when it does not)
#   stop_pid PID                  stops a process this script started (TERM, waits up to 5 s, then KILL) and reaps
#                                 it when it is this shell's child
#
# Every server is stopped by the PID the script recorded, never by name.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_until() {
    local tenths="$1" pid="$2"
    shift 2
    local deadline=$((SECONDS + (tenths + 9) / 10))
    while true; do
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
        "$@" && return 0
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

wait_for_url() {
    local url="$1" tenths="${2:-100}" pid="${3:-}"
    wait_until "$tenths" "$pid" curl -s -o /dev/null --max-time 1 "$url"
}

nginx_binary() {
    if [ -n "${NGINX:-}" ]; then
        echo "$NGINX"
    elif command -v nginx >/dev/null; then
        command -v nginx
    elif [ -x /usr/sbin/nginx ]; then
        echo /usr/sbin/nginx
    fi
}

port_accepts() {
    python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$1" \
        2>/dev/null
}

start_server() {
    local name="$1" port="$2"
    shift 2
    "$@" >"$WORK/$name.out" 2>&1 &
    local pid=$!
    echo "$pid" >"$WORK/$name.pid"
    if ! wait_until 150 "$pid" port_accepts "$port"; then
        cat "$WORK/$name.out" >&2 || true
        die "$name did not accept connections on 127.0.0.1:$port"
    fi
}

nginx_conf() {
    local dir="$1" block="$2" binary
    binary="$(nginx_binary)"
    [ -n "$binary" ] || die "nginx not found: apt-get install -y nginx-light"
    mkdir -p "$dir/logs" "$dir/tmp"
    chmod 755 "$dir" # nginx workers run as an unprivileged user when started by root
    cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
$block
}
CONF
    printf '%s\n' "$binary" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" -g 'daemon off;'
}

NGINX_PID=""
nginx_start() {
    local dir="$1" root="$2" port="$3" directives="${4:-}" command=()
    chmod 755 "$root"
    mapfile -t command < <(nginx_conf "$dir" "$directives
    server {
        listen 127.0.0.1:$port;
        root $root;
    }")
    [ ${#command[@]} -gt 0 ] || exit 1
    "${command[@]}" &
    NGINX_PID=$!
    if ! wait_for_url "http://127.0.0.1:$port/"; then
        cat "$dir/logs/error.log" >&2 || true
        die "nginx did not answer on 127.0.0.1:$port"
    fi
}

# all_running ENV_FILE WORK NAME…: whether a previous `start` left its env file and every server NAME (WORK/NAME.pid)
# is still alive.
all_running() {
    local env_file="$1" work="$2" name
    shift 2
    [ -f "$env_file" ] || return 1
    for name in "$@"; do
        [ -f "$work/$name.pid" ] && kill -0 "$(cat "$work/$name.pid")" 2>/dev/null || return 1
    done
}

stop_pid() {
    local pid="$1"
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true # reaps a child (no "Terminated" notice); fails quietly for any other process
}

# make_test_ca DIR NAME: a test CA called NAME and a server certificate for localhost and 127.0.0.1 it signs
# (ECDSA P-256, 30 days), in DIR: ca.pem, ca.key, server.pem, server.key, and pin (the server key's SPKI SHA-256 in
# base64, the form TLSConfiguration.pinnedPublicKeys takes).
make_test_ca() {
    local dir="$1" name="$2"
    mkdir -p "$dir"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" -subj "/CN=$name" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -keyout "$dir/server.key" -out "$dir/server.csr" -subj "/CN=localhost" 2>/dev/null
    printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
        -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
    openssl x509 -in "$dir/server.pem" -pubkey -noout | openssl pkey -pubin -outform der |
        openssl dgst -sha256 -binary | openssl base64 -A >"$dir/pin"
    chmod 644 "$dir/ca.pem" "$dir/server.pem"
}

# ensure_ws_venv VENV: a virtual environment at VENV with the Python WebSocket servers and client the scripts pin
# (websockets, hypercorn), made once.
ensure_ws_venv() {
    local venv="$1"
    if [ ! -x "$venv/bin/hypercorn" ] || ! "$venv/bin/python" -c 'import websockets' 2>/dev/null; then
        "${PYTHON:-python3}" -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check websockets==17.4 hypercorn==0.18.0
    fi
}
