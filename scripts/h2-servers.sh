#!/usr/bin/env bash
# Runs two independent HTTP/2 servers on loopback, speaking cleartext HTTP/2 with prior knowledge (h2c, no
# Upgrade), for the HTTP/2 interop tests (Tests/BothamNetworkingNativeTests/HTTP2/Interop):
#
#   scripts/h2-servers.sh start   start, each on a free 127.0.0.1 port, and wait (bounded) until each accepts:
#                                   nginx (Debian's nginx-light): static files, and a second server that sends
#                                     GOAWAY after 3 requests on a connection (keepalive_requests 3)
#                                   hypercorn (PyPI, in .venv-h2): the ASGI app scripts/h2_app.py (/bytes/N, /echo)
#                                   scripts/h2_faults.py, on PyPI's h2 (hypercorn's own HTTP/2 layer): the faults
#                                 then write .ci-work/h2/env (the variables below) and one PID file per server
#   scripts/h2-servers.sh env     print the `export` lines of those variables (eval "$(scripts/h2-servers.sh env)")
#   scripts/h2-servers.sh stop    stop every server `start` started, by its PID
#
# The variables the tests read (each test skips, saying which variable is missing, when unset):
#   BOTHAM_TEST_H2C_NGINX          127.0.0.1:PORT   nginx, the files of BOTHAM_TEST_H2C_NGINX_ROOT
#   BOTHAM_TEST_H2C_NGINX_GOAWAY   127.0.0.1:PORT   nginx, the same files, GOAWAY after 3 requests
#   BOTHAM_TEST_H2C_NGINX_ROOT     a folder under /tmp with small.txt and big.bin (under /tmp, not in the clone:
#                                  nginx's workers run unprivileged and must reach it whatever the clone's parents)
#   BOTHAM_TEST_H2C_HYPERCORN      127.0.0.1:PORT   hypercorn
#   BOTHAM_TEST_H2C_FAULTS         127.0.0.1:PORT   h2_faults.py: RST_STREAM mid-body, GOAWAY mid-flight, a window
#                                                   that never opens, an oversized head, DATA on a closed stream
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

WORK="$ROOT/.ci-work/h2"
ENV_FILE="$WORK/env"
VENV="$ROOT/.venv-h2"
PYTHON="${PYTHON:-python3}"

ensure_venv() {
    if [ ! -x "$VENV/bin/hypercorn" ]; then
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/pip" install --quiet --disable-pip-version-check hypercorn==0.18.0
    fi
}

start_nginx() {
    local port="$1" goaway_port="$2" www="$3" command=()
    mapfile -t command < <(nginx_conf "$WORK/nginx" "
    server {
        listen 127.0.0.1:$port http2;
        root $www;
    }
    server {
        listen 127.0.0.1:$goaway_port http2;
        root $www;
        keepalive_requests 3;
    }")
    [ ${#command[@]} -gt 0 ] || exit 1
    start_server nginx "$port" "${command[@]}"
}

start() {
    if all_running "$ENV_FILE" "$WORK" nginx hypercorn faults; then
        echo "HTTP/2 servers already running (scripts/h2-servers.sh stop first)" >&2
        return 0
    fi
    stop # whatever a previous run left (a start that failed halfway leaves PID files and no env file)
    mkdir -p "$WORK"
    chmod 755 "$WORK"
    local www
    www="$(mktemp -d /tmp/botham-h2-www.XXXXXX)"
    echo "$www" >"$WORK/www.path"
    chmod 755 "$www"
    printf 'hello from nginx over h2c\n' >"$www/small.txt"
    python3 -c 'import sys; p = bytes(i % 251 for i in range(251)); sys.stdout.buffer.write((p * 16712)[:4 << 20])' \
        >"$www/big.bin"
    chmod 644 "$www/small.txt" "$www/big.bin"
    ensure_venv
    local nginx goaway hypercorn
    nginx="$(free_port)"
    goaway="$(free_port)"
    while [ "$goaway" = "$nginx" ]; do goaway="$(free_port)"; done
    start_nginx "$nginx" "$goaway" "$www"
    hypercorn="$(free_port)"
    # hypercorn imports the app from its working directory; exec keeps the recorded PID hypercorn's own (with one
    # worker it serves in that process).
    start_server hypercorn "$hypercorn" bash -c \
        "cd '$ROOT/scripts' && exec '$VENV/bin/hypercorn' --bind 127.0.0.1:$hypercorn --workers 1 h2_app:app"
    local faults
    faults="$(free_port)"
    start_server faults "$faults" "$VENV/bin/python" "$ROOT/scripts/h2_faults.py" "$faults"
    cat >"$ENV_FILE" <<ENV
export BOTHAM_TEST_H2C_NGINX=127.0.0.1:$nginx
export BOTHAM_TEST_H2C_NGINX_GOAWAY=127.0.0.1:$goaway
export BOTHAM_TEST_H2C_NGINX_ROOT=$www
export BOTHAM_TEST_H2C_HYPERCORN=127.0.0.1:$hypercorn
export BOTHAM_TEST_H2C_FAULTS=127.0.0.1:$faults
ENV
    echo "HTTP/2 servers running: nginx :$nginx, nginx (GOAWAY after 3) :$goaway, hypercorn :$hypercorn," \
        "faults :$faults" >&2
}

stop() {
    local name
    for name in nginx hypercorn faults; do
        if [ -f "$WORK/$name.pid" ]; then
            stop_pid "$(cat "$WORK/$name.pid")"
            rm -f "$WORK/$name.pid"
        fi
    done
    if [ -f "$WORK/www.path" ]; then
        local www
        www="$(cat "$WORK/www.path")"
        case "$www" in /tmp/botham-h2-www.*) rm -rf "$www" ;; esac
        rm -f "$WORK/www.path"
    fi
    rm -f "$ENV_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
env) [ -f "$ENV_FILE" ] && cat "$ENV_FILE" ;;
*) die "usage: $0 start|env|stop" ;;
esac
