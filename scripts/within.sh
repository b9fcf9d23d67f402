#!/usr/bin/env bash
# Runs a command with a deadline, so that a test run that hangs fails its CI step in bounded time and says where:
#
#   scripts/within.sh SECONDS COMMAND [ARGUMENT…]
#
# The command runs in a process group of its own, its output passing through line by line. Past SECONDS this
# script prints the Swift Testing tests that started and never finished (from that output), the threads of every
# test process of the group (with gdb, when it is installed), then stops the group (TERM, then KILL after 10 s)
# and exits 124, as timeout(1) does. Otherwise it exits with the command's status, repeating the failures it
# printed (failed tests, recorded issues, errors) at the end when that status is not zero, and appends them to the
# file WITHIN_FAILURES names, when set (a CI step of several runs prints them all once more at its end).
set -uo pipefail

[ $# -ge 2 ] || { echo "usage: $(basename "$0") SECONDS COMMAND [ARGUMENT…]" >&2; exit 2; }
limit="$1"
shift

work="$(mktemp -d)"
log="$work/output"
pidfile="$work/pid"
group=""
cleanup() {
    [ -n "$group" ] && kill -KILL -- "-$group" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# setsid: the command leads a process group of its own, which the watchdog can stop whole. stdbuf: programs that
# buffer a pipe's output by blocks print each line as it comes, so the log is current when it is read.
setsid --wait bash -c 'echo $$ > "$0"; exec stdbuf -oL -eL "$@"' "$pidfile" "$@" > >(tee "$log") 2>&1 &
runner=$!
for _ in $(seq 50); do [ -s "$pidfile" ] && break; sleep 0.1; done
group="$(cat "$pidfile" 2>/dev/null || true)"
# The runner is a background job of this non-interactive shell, never a group leader, so setsid ran in place: its
# PID is the group's id even when the pid file did not come.
[ -n "$group" ] || group="$runner"

# The command's processes and their descendants: swift test starts its test process in a process group of its own.
descendants() {
    ps -eo pid=,ppid= | awk -v root="$group" '
        { parent[$1] = $2 }
        END {
            for (pid in parent) {
                p = pid
                while (p in parent && p != root && p > 1) p = parent[p]
                if (p == root) print pid
            }
        }'
}

report() {
    echo
    echo "==> $(basename "$0"): '$*' did not finish within ${limit} s"
    echo "Tests that started and never finished:"
    python3 - "$log" <<'EOF'
import re, sys
started, ended = {}, {}
for line in open(sys.argv[1], errors="replace"):
    match = re.search(r'Test (?:case passing .*? to )?"(.*)" (started|passed|failed|skipped)', line)
    if not match or " recorded an issue" in line:
        continue
    table = started if match.group(2) == "started" else ended
    table[match.group(1)] = table.get(match.group(1), 0) + 1
for name, count in started.items():
    if count > ended.get(name, 0):
        print(f"  {name}")
EOF
    if command -v gdb >/dev/null 2>&1; then
        for pid in $(descendants); do
            command_line="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-160)"
            case "$command_line" in
            *.xctest* | *swiftpm-testing-helper*)
                echo "Threads of $pid ($command_line):"
                timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 25" 2>/dev/null |
                    grep -E '^(Thread|#)' | grep -v -E '^#[0-9]+ +0x[0-9a-f]+ in \?\?' | head -400
                ;;
            esac
        done
    fi
}

deadline=$((SECONDS + limit))
while kill -0 "$runner" 2>/dev/null && [ "$(ps -o stat= -p "$runner" 2>/dev/null | cut -c1)" != "Z" ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        report "$@"
        processes="$(descendants)"
        kill -TERM -- "-$group" $processes 2>/dev/null
        for _ in $(seq 100); do
            alive=""
            for pid in "-$group" $processes; do kill -0 -- "$pid" 2>/dev/null && alive=1; done
            [ -n "$alive" ] || break
            sleep 0.1
        done
        kill -KILL -- "-$group" $processes 2>/dev/null
        wait "$runner" 2>/dev/null
        exit 124
    fi
    sleep 1
done
wait "$runner"
status=$?
group=""
if [ "$status" -ne 0 ]; then
    # A long run's failures scroll far above its last lines (where a CI log's tail is read): repeat them last.
    {
        echo
        echo "==> $(basename "$0"): '$*' exited $status; its failures, repeated:"
        grep -E -A4 '^[^[:alnum:]]*✘|recorded an issue|error:|Fatal error|signal [0-9]|ThreadSanitizer' "$log" |
            grep -v -E ' started\.$|^[^[:alnum:]]*✔' | head -150
    } | tee -a "${WITHIN_FAILURES:-/dev/null}"
fi
exit "$status"
