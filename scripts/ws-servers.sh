#!/usr/bin/env bash
# Runs independent WebSocket servers on loopback for the WebSocket interop tests:
#
#   scripts/ws-servers.sh start   make a test CA and a server certificate (openssl, under .ci-work/ws/tls), then
#                                 start, each on a free 127.0.0.1 port, and wait (bounded) until each accepts:
#                                   websockets (PyPI, in .venv-ws): scripts/ws_app.py over plain ws:// (its paths:
#                                     /echo /subprotocol /close?code=N&reason=R /deflate /nodeflate /auth /redirect
#                                     /headers /count?n=N /slowclose, each described in that file's header)
#                                   hypercorn (PyPI, in .venv-ws): scripts/ws_h2_app.py, WebSockets over HTTP/2
#                                     (RFC 8441 extended CONNECT): h2c with prior knowledge on one port, TLS (ALPN h2,
#                                     http/1.1) with the test CA's certificate on another
#                                   nginx (Debian's nginx-light): wss:// terminated with the test CA's certificate,
#                                     proxy_pass (HTTP/1.1 Upgrade) to the websockets server: every path above
#                                 then write .ci-work/ws/env (the variables below) and one PID file per server
#   scripts/ws-servers.sh env     print the `export` lines of those variables (eval "$(scripts/ws-servers.sh env)")
#   scripts/ws-servers.sh check   connect to each running server with a Python client (scripts/ws_check.py) and
#                                 print OK per server and behaviour; exit 1 on the first that fails
#   scripts/ws-servers.sh stop    stop every server `start` started, by its PID
#
# The variables the tests read (each test skips, saying which variable is missing, when unset):
#   BOTHAM_TEST_WS            127.0.0.1:PORT  websockets, ws:// (the paths of scripts/ws_app.py)
#   BOTHAM_TEST_WS_H2C        127.0.0.1:PORT  hypercorn, h2c prior knowledge, SETTINGS_ENABLE_CONNECT_PROTOCOL=1,
#                                             extended CONNECT to /echo (and the HTTP/1.1 Upgrade on the same port)
#   BOTHAM_TEST_WSS_H2        127.0.0.1:PORT  hypercorn over TLS (ALPN h2), the same app; trust BOTHAM_TEST_WSS_CA
#   BOTHAM_TEST_WSS_NGINX     127.0.0.1:PORT  nginx, wss:// to the websockets server (every path of ws_app.py)
#   BOTHAM_TEST_WSS_CA        the test CA's certificate (PEM) that signed both TLS servers' certificate
#                             (subjectAltName IP:127.0.0.1, DNS:localhost)
#   BOTHAM_TEST_WSS_PIN       base64 SHA-256 of the servers' certificate's SubjectPublicKeyInfo (the pin that
#                             matches; a fresh key pair is made on every start)
#
# Needs python3 (venv, PyPI), openssl and Debian's nginx-light (apt-get install -y nginx-light).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

WORK="$ROOT/.ci-work/ws"
ENV_FILE="$WORK/env"
TLS="$WORK/tls"
VENV="$ROOT/.venv-ws"
PYTHON="${PYTHON:-python3}"
SERVERS=(websockets hypercorn nginx)

# A fresh test CA and server certificate (lib.sh's make_test_ca).
make_certificates() {
    rm -rf "$TLS"
    make_test_ca "$TLS" "BothamNetworking WebSocket test CA"
}

start_nginx() {
    local port="$1" upstream="$2" command=()
    mapfile -t command < <(nginx_conf "$WORK/nginx" "
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $TLS/server.pem;
        ssl_certificate_key $TLS/server.key;
        location / {
            proxy_pass http://127.0.0.1:$upstream;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \"upgrade\";
            proxy_set_header Host \$host;
            proxy_read_timeout 300s;
            proxy_buffering off;
        }
    }")
    [ ${#command[@]} -gt 0 ] || exit 1
    start_server nginx "$port" "${command[@]}"
}

start() {
    if all_running "$ENV_FILE" "$WORK" "${SERVERS[@]}"; then
        echo "WebSocket servers already running (scripts/ws-servers.sh stop first)" >&2
        return 0
    fi
    stop # whatever a previous run left (a start that failed halfway leaves PID files and no env file)
    command -v openssl >/dev/null || die "openssl not found: apt-get install -y openssl"
    mkdir -p "$WORK"
    chmod 755 "$WORK"
    ensure_ws_venv "$VENV"
    make_certificates
    local ws h2c h2tls wss
    ws="$(free_port)"
    start_server websockets "$ws" "$VENV/bin/python" "$ROOT/scripts/ws_app.py" "$ws"
    h2c="$(free_port)"
    h2tls="$(free_port)"
    while [ "$h2tls" = "$h2c" ]; do h2tls="$(free_port)"; done
    # One hypercorn process serves both: --bind is TLS (a certificate is given), --insecure-bind is h2c. hypercorn
    # imports the app from its working directory; exec keeps the recorded PID hypercorn's own (one worker serves in
    # that process).
    start_server hypercorn "$h2tls" bash -c "cd '$ROOT/scripts' && exec '$VENV/bin/hypercorn' --workers 1 \
        --certfile '$TLS/server.pem' --keyfile '$TLS/server.key' --bind 127.0.0.1:$h2tls \
        --insecure-bind 127.0.0.1:$h2c ws_h2_app:app"
    if ! wait_until 150 "$(cat "$WORK/hypercorn.pid")" port_accepts "$h2c"; then
        cat "$WORK/hypercorn.out" >&2 || true
        die "hypercorn did not accept connections on 127.0.0.1:$h2c"
    fi
    wss="$(free_port)"
    start_nginx "$wss" "$ws"
    cat >"$ENV_FILE" <<ENV
export BOTHAM_TEST_WS=127.0.0.1:$ws
export BOTHAM_TEST_WS_H2C=127.0.0.1:$h2c
export BOTHAM_TEST_WSS_H2=127.0.0.1:$h2tls
export BOTHAM_TEST_WSS_NGINX=127.0.0.1:$wss
export BOTHAM_TEST_WSS_CA=$TLS/ca.pem
export BOTHAM_TEST_WSS_PIN=$(cat "$TLS/pin")
ENV
    echo "WebSocket servers running: websockets :$ws, hypercorn h2c :$h2c, hypercorn TLS :$h2tls," \
        "nginx wss :$wss" >&2
}

check() {
    [ -f "$ENV_FILE" ] || die "no servers running (scripts/ws-servers.sh start first)"
    # shellcheck disable=SC1090
    source "$ENV_FILE"
    "$VENV/bin/python" "$ROOT/scripts/ws_check.py"
}

stop() {
    local name
    for name in "${SERVERS[@]}"; do
        if [ -f "$WORK/$name.pid" ]; then
            stop_pid "$(cat "$WORK/$name.pid")"
            rm -f "$WORK/$name.pid"
        fi
    done
    rm -f "$ENV_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
check) check ;;
env) [ -f "$ENV_FILE" ] && cat "$ENV_FILE" ;;
*) die "usage: $0 start|env|check|stop" ;;
esac
