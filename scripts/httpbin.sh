#!/usr/bin/env bash
# Runs httpbin (https://github.com/postmanlabs/httpbin) on loopback for the interop tests, and next to it the small
# REST API of scripts/api_app.py (GitHub-style Link paging, a cursor, rate-limit headers, 429/503 with Retry-After;
# stdlib only) on the same gunicorn, as one process with threads since its counters live in memory.
#
#   scripts/httpbin.sh start    create .venv-httpbin if missing, start both servers each on a free 127.0.0.1 port,
#                               wait (bounded) until each answers, write .ci-work/httpbin.{pid,url} and
#                               .ci-work/api-app.{pid,url}
#   scripts/httpbin.sh url      print httpbin's URL (for HTTPBIN_URL)
#   scripts/httpbin.sh api-url  print the API app's URL (for API_APP_URL; the paging and rate-limit interop tests
#                               skip, saying so, without it)
#   scripts/httpbin.sh stop     stop both servers started by `start` (by their PIDs)
#
# Run the interop suite:
#   scripts/httpbin.sh start
#   HTTPBIN_URL=$(scripts/httpbin.sh url) API_APP_URL=$(scripts/httpbin.sh api-url) nice swift test --filter Interop
#   scripts/httpbin.sh stop
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VENV="$ROOT/.venv-httpbin"
WORK="$ROOT/.ci-work"
PID_FILE="$WORK/httpbin.pid"
URL_FILE="$WORK/httpbin.url"
LOG_FILE="$WORK/httpbin.log"
API_PID_FILE="$WORK/api-app.pid"
API_URL_FILE="$WORK/api-app.url"
API_LOG_FILE="$WORK/api-app.log"
PYTHON="${PYTHON:-python3}"
# Versions known to install and run together with Python 3.11 on this machine.
HTTPBIN_VERSION="0.10.4"
GUNICORN_VERSION="27.0.1"
WAIT_SECONDS=30

is_running() {
    [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null
}

api_is_running() {
    [[ -f "$API_PID_FILE" ]] && kill -0 "$(cat "$API_PID_FILE")" 2>/dev/null
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

# Whether the API app answers its readiness probe.
api_answers() {
    curl -sf -o /dev/null --max-time 1 "$1/health"
}

# start_gunicorn NAME PID_FILE URL_FILE LOG_FILE PROBE GUNICORN_ARGS…: starts gunicorn on a free port with the
# arguments and `--bind`, until PROBE URL says the app answers (three ports at most); records its PID and URL.
start_gunicorn() {
    local name="$1" pid_file="$2" url_file="$3" log_file="$4" probe="$5" port url pid
    shift 5
    for _ in 1 2 3; do
        port="$(free_port)"
        url="http://127.0.0.1:$port"
        "$VENV/bin/gunicorn" "$@" --bind "127.0.0.1:$port" >"$log_file" 2>&1 &
        pid=$!
        echo "$pid" >"$pid_file"
        echo "$url" >"$url_file"
        if wait_until $((WAIT_SECONDS * 10)) "$pid" "$probe" "$url"; then
            echo "$name running at $url (PID $pid)" >&2
            return 0
        fi
        stop_pid "$pid"
        rm -f "$pid_file" "$url_file"
        echo "$name did not answer on port $port; retrying" >&2
    done
    cat "$log_file" >&2 || true
    die "$name failed to start"
}

start_api() {
    if api_is_running; then
        echo "API app already running at $(cat "$API_URL_FILE") (PID $(cat "$API_PID_FILE"))" >&2
        return 0
    fi
    # One worker (one process: the budgets and counters are shared), eight threads (waits do not block others).
    start_gunicorn "API app" "$API_PID_FILE" "$API_URL_FILE" "$API_LOG_FILE" api_answers \
        --workers 1 --threads 8 --chdir "$ROOT/scripts" api_app:app
}

start() {
    mkdir -p "$WORK"
    ensure_venv
    start_api
    if is_running; then
        echo "httpbin already running at $(cat "$URL_FILE") (PID $(cat "$PID_FILE"))" >&2
        return 0
    fi
    # Eight sync workers so that slow endpoints (/delay) do not block the rest of the suite.
    start_gunicorn httpbin "$PID_FILE" "$URL_FILE" "$LOG_FILE" answers --workers 8 --chdir "$WORK" httpbin:app
}

stop() {
    if [[ -f "$API_PID_FILE" ]]; then
        stop_pid "$(cat "$API_PID_FILE")"
        rm -f "$API_PID_FILE" "$API_URL_FILE"
        echo "API app stopped" >&2
    fi
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

api_url() {
    api_is_running || die "the API app is not running (run: scripts/httpbin.sh start)"
    cat "$API_URL_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url) url ;;
api-url) api_url ;;
*) die "usage: $0 start|stop|url|api-url" ;;
esac
