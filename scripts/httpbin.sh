#!/usr/bin/env bash
# Runs httpbin (https://github.com/postmanlabs/httpbin) on loopback for the interop tests.
#
#   scripts/httpbin.sh start   create .venv-httpbin if missing, start gunicorn on a free 127.0.0.1 port,
#                              wait (bounded) until it answers, write .ci-work/httpbin.pid and .ci-work/httpbin.url
#   scripts/httpbin.sh url     print the server's URL (for HTTPBIN_URL)
#   scripts/httpbin.sh stop    stop the server started by `start` (by its PID)
#
# Run the interop suite:
#   scripts/httpbin.sh start
#   HTTPBIN_URL=$(scripts/httpbin.sh url) nice swift test --filter Interop
#   scripts/httpbin.sh stop
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VENV="$ROOT/.venv-httpbin"
WORK="$ROOT/.ci-work"
PID_FILE="$WORK/httpbin.pid"
URL_FILE="$WORK/httpbin.url"
LOG_FILE="$WORK/httpbin.log"
PYTHON="${PYTHON:-python3}"
# Versions known to install and run together with Python 3.11 on this machine.
HTTPBIN_VERSION="0.10.4"
GUNICORN_VERSION="27.0.1"
WAIT_SECONDS=30

is_running() {
    [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null
}

ensure_venv() {
    if [[ ! -x "$VENV/bin/gunicorn" ]]; then
        echo "Creating $VENV (httpbin $HTTPBIN_VERSION, gunicorn $GUNICORN_VERSION)…" >&2
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/pip" install --quiet --disable-pip-version-check \
            "httpbin==$HTTPBIN_VERSION" "gunicorn==$GUNICORN_VERSION"
    fi
}

# Whether httpbin itself answers (200 from /get), not only gunicorn's socket.
answers() {
    curl -sf -o /dev/null --max-time 1 "$1/get"
}

start() {
    if is_running; then
        echo "httpbin already running at $(cat "$URL_FILE") (PID $(cat "$PID_FILE"))" >&2
        return 0
    fi
    mkdir -p "$WORK"
    ensure_venv
    local port url pid
    for _ in 1 2 3; do
        port="$(free_port)"
        url="http://127.0.0.1:$port"
        # Eight sync workers so that slow endpoints (/delay) do not block the rest of the suite.
        "$VENV/bin/gunicorn" --workers 8 --bind "127.0.0.1:$port" --chdir "$WORK" httpbin:app \
            >"$LOG_FILE" 2>&1 &
        pid=$!
        echo "$pid" >"$PID_FILE"
        echo "$url" >"$URL_FILE"
        if wait_until $((WAIT_SECONDS * 10)) "$pid" answers "$url"; then
            echo "httpbin running at $url (PID $pid)" >&2
            return 0
        fi
        stop_pid "$pid"
        rm -f "$PID_FILE" "$URL_FILE"
        echo "httpbin did not answer on port $port; retrying" >&2
    done
    cat "$LOG_FILE" >&2 || true
    die "httpbin failed to start"
}

stop() {
    if [[ -f "$PID_FILE" ]]; then
        local pid
        pid="$(cat "$PID_FILE")"
        stop_pid "$pid"
        rm -f "$PID_FILE" "$URL_FILE"
        echo "httpbin stopped" >&2
    else
        echo "httpbin is not running" >&2
    fi
}

url() {
    is_running || die "httpbin is not running (run: scripts/httpbin.sh start)"
    cat "$URL_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url) url ;;
*) die "usage: $0 start|stop|url" ;;
esac
