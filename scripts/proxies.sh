#!/usr/bin/env bash
# Runs real proxies on loopback for the proxy tests of NativeHTTPClient (Tests/BothamNetworkingNativeTests/Proxy).
#
#   scripts/proxies.sh start   start, each on a free 127.0.0.1 port, and wait (bounded) until each accepts:
#                                tinyproxy, open           (HTTP forwarding and CONNECT, no credentials)
#                                tinyproxy, BasicAuth      (the 407 and credential tests)
#                                danted, no authentication (SOCKS5)
#                                scripts/socks5-server.py  (SOCKS5 with RFC 1929 username/password: danted's
#                                                           username method checks the system's accounts, see there)
#                              then write .ci-work/proxies/env (the variables below) and one PID file per server
#   scripts/proxies.sh env     print the `export` lines of those variables (eval "$(scripts/proxies.sh env)")
#   scripts/proxies.sh stop    stop every server `start` started, by its PID
#
# The variables the tests read (each test skips, saying which variable is missing, when unset):
#   BOTHAM_TEST_HTTP_PROXY          http://127.0.0.1:PORT                 open tinyproxy
#   BOTHAM_TEST_HTTP_PROXY_LOG      its log file (the tests read the CONNECT lines from it)
#   BOTHAM_TEST_HTTP_PROXY_AUTH     http://botham:s3cret@127.0.0.1:PORT   tinyproxy with BasicAuth
#   BOTHAM_TEST_SOCKS_PROXY         socks5h://127.0.0.1:PORT              danted
#   BOTHAM_TEST_SOCKS_PROXY_AUTH    socks5h://botham:s3cret@127.0.0.1:PORT  socks5-server.py
#   BOTHAM_TEST_SOCKS_PROXY_AUTH_LOG  its log (one CONNECT line per tunnel)
#
# Needs Debian's tinyproxy and dante-server (apt-get install -y tinyproxy dante-server) and python3.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

WORK="$ROOT/.ci-work/proxies"
ENV_FILE="$WORK/env"
USER_NAME="botham"
PASSWORD="s3cret"

tinyproxy_binary() {
    command -v tinyproxy 2>/dev/null || { [ -x /usr/bin/tinyproxy ] && echo /usr/bin/tinyproxy; } || true
}

danted_binary() {
    command -v danted 2>/dev/null || { [ -x /usr/sbin/danted ] && echo /usr/sbin/danted; } || true
}

start_tinyproxy() {
    local name="$1" port="$2" auth="$3" binary
    binary="$(tinyproxy_binary)"
    [ -n "$binary" ] || die "tinyproxy not found: apt-get install -y tinyproxy"
    # No ConnectPort line: CONNECT is allowed to every port (the test servers' ports are random).
    cat >"$WORK/$name.conf" <<CONF
Port $port
Listen 127.0.0.1
Timeout 30
LogFile "$WORK/$name.log"
LogLevel Info
PidFile "$WORK/$name.tinyproxy.pid"
MaxClients 64
Allow 127.0.0.1
$auth
CONF
    : >"$WORK/$name.log"
    chmod 666 "$WORK/$name.log" # tinyproxy started by root writes it as nobody
    start_server "$name" "$port" "$binary" -d -c "$WORK/$name.conf"
}

start_danted() {
    local port="$1" binary users=""
    binary="$(danted_binary)"
    [ -n "$binary" ] || die "danted not found: apt-get install -y dante-server"
    if [ "$(id -u)" = 0 ]; then users=$'user.privileged: root\nuser.unprivileged: nobody'; fi
    cat >"$WORK/danted.conf" <<CONF
logoutput: $WORK/danted.log
internal: 127.0.0.1 port = $port
external: 127.0.0.1
socksmethod: none
clientmethod: none
$users
client pass {
    from: 127.0.0.1/32 to: 0.0.0.0/0
}
socks pass {
    from: 127.0.0.1/32 to: 127.0.0.0/8
    command: connect
    log: connect
}
socks block {
    from: 0.0.0.0/0 to: 0.0.0.0/0
    log: connect error
}
CONF
    start_server danted "$port" "$binary" -f "$WORK/danted.conf" -p "$WORK/danted.danted.pid" -N 1
}

start() {
    if [ -f "$ENV_FILE" ]; then
        local alive=1 name
        for name in tinyproxy-open tinyproxy-auth danted socks5-auth; do
            [ -f "$WORK/$name.pid" ] && kill -0 "$(cat "$WORK/$name.pid")" 2>/dev/null || alive=0
        done
        if [ "$alive" = 1 ]; then
            echo "proxies already running (scripts/proxies.sh stop first)" >&2
            return 0
        fi
        stop # a previous run died: clear what is left of it
    fi
    mkdir -p "$WORK"
    chmod 755 "$WORK"
    local open auth socks socks_auth
    open="$(free_port)"
    start_tinyproxy tinyproxy-open "$open" ""
    auth="$(free_port)"
    start_tinyproxy tinyproxy-auth "$auth" "BasicAuth $USER_NAME $PASSWORD"
    socks="$(free_port)"
    start_danted "$socks"
    socks_auth="$(free_port)"
    start_server socks5-auth "$socks_auth" python3 -u "$ROOT/scripts/socks5-server.py" "$socks_auth" \
        "$USER_NAME" "$PASSWORD"
    cat >"$ENV_FILE" <<ENV
export BOTHAM_TEST_HTTP_PROXY=http://127.0.0.1:$open
export BOTHAM_TEST_HTTP_PROXY_LOG=$WORK/tinyproxy-open.log
export BOTHAM_TEST_HTTP_PROXY_AUTH=http://$USER_NAME:$PASSWORD@127.0.0.1:$auth
export BOTHAM_TEST_SOCKS_PROXY=socks5h://127.0.0.1:$socks
export BOTHAM_TEST_SOCKS_PROXY_AUTH=socks5h://$USER_NAME:$PASSWORD@127.0.0.1:$socks_auth
export BOTHAM_TEST_SOCKS_PROXY_AUTH_LOG=$WORK/socks5-auth.out
ENV
    echo "proxies running: tinyproxy :$open, tinyproxy+auth :$auth, danted :$socks, socks5+auth :$socks_auth" >&2
}

stop() {
    local name
    for name in tinyproxy-open tinyproxy-auth danted socks5-auth; do
        if [ -f "$WORK/$name.pid" ]; then
            stop_pid "$(cat "$WORK/$name.pid")"
            rm -f "$WORK/$name.pid"
        fi
    done
    rm -f "$ENV_FILE"
    echo "proxies stopped" >&2
}

env_lines() {
    [ -f "$ENV_FILE" ] || die "the proxies are not running (run: scripts/proxies.sh start)"
    cat "$ENV_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
env) env_lines ;;
*) die "usage: $0 start|stop|env" ;;
esac
