#!/usr/bin/env bash
# Runs the Autobahn|Testsuite fuzzing server on loopback, for the WebSocket client conformance run, and reads its
# report:
#
#   scripts/autobahn.sh start     start `wstest -m fuzzingserver` on a free 127.0.0.1 port with the cases of
#                                 $AUTOBAHN_CASES (default below) and wait (bounded) until it accepts; write
#                                 .ci-work/autobahn/env (the variables below) and its PID file
#   scripts/autobahn.sh env       print the `export` lines of those variables (eval "$(scripts/autobahn.sh env)")
#   scripts/autobahn.sh selftest  run the reference testee (scripts/autobahn_testee.py: PyPI's websockets client) as
#                                 agents websockets and websockets-nodeflate, then `report` them: proves the suite
#                                 runs here and shows what a passing client's report looks like
#   scripts/autobahn.sh report [AGENT…]
#                                 summarize reports/index.json per agent (all agents when none is named): the count
#                                 of each behaviour (OK, NON-STRICT, INFORMATIONAL, UNIMPLEMENTED, FAILED) and of each
#                                 closing behaviour, then every FAILED case with its description; exit 1 when a case
#                                 is anything but OK, NON-STRICT or INFORMATIONAL (run and close), except UNIMPLEMENTED
#                                 12.*/13.* for an agent named *nodeflate, or a named agent has no results
#   scripts/autobahn.sh stop      stop the fuzzing server, by its PID
#
# The variables:
#   BOTHAM_AUTOBAHN_URL       ws://127.0.0.1:PORT   the fuzzing server
#   BOTHAM_AUTOBAHN_REPORTS   its report folder (index.json, index.html, one .json/.html per agent and case)
#
# Cases: $AUTOBAHN_CASES, space-separated patterns (default: 1.* 2.* 3.* 4.* 5.* 6.* 7.* 9.* 10.* 12.* 13.*);
# $AUTOBAHN_EXCLUDE likewise (default: none; `*` matches any run of characters, e.g. 12.*.9); $AUTOBAHN_DEFLATE_SIZES=K
# (1-18, default 18) keeps only the first K of the 18 message-size variants of every 12.x and 13.x group (they grow
# from 16 octets to 128 KiB; the first 6 are up to 8 KiB unfragmented). 9.* are the limits/performance cases
# (messages up to 16 MiB). 12.* and 13.* need permessage-deflate (an agent that does not offer it gets UNIMPLEMENTED
# there). Measured here with the reference testee (the fuzzing server is single-threaded Python 2 and is much of
# the cost): 1.*-10.* about 40 s per agent; 12.* about 600 s and 13.* about 340 s with all 18 sizes; 12.* and 13.*
# together about 57 s with 6 sizes, 112 s with 8.
#
# The fuzzing server's protocol (Autobahn|Testsuite 25.10.1, autobahntestsuite/fuzzing.py). Every step is its own
# WebSocket connection (HTTP/1.1 Upgrade, plain ws://) to the server's URL, with a query:
#   /getCaseCount                 the server sends one text message, the number of cases N as JSON (e.g. "517"),
#                                 then closes (1000)
#   /runCase?case=I&agent=A       runs case I (1…N, in the spec's order) for agent A (the name reports group by): the
#                                 server sends frames and the client must behave as RFC 6455 says: echo every message
#                                 back whole with the same opcode (text as text, binary as binary), answer pings,
#                                 fail the connection on protocol violations (the close code is judged: 1002, 1007,
#                                 ...), complete the closing handshake. The client connects to the next case only once
#                                 this connection is closed. For 12.* and 13.* the client offers permessage-deflate;
#                                 13.* accept, per case, the client's offer only with the parameters the client said
#                                 it supports (13.3+ ask client_max_window_bits=9 or 15 when the offer carries
#                                 `client_max_window_bits`, 13.2/13.5+ client_no_context_takeover when the client
#                                 offered it); an offer the case cannot accept leaves it UNIMPLEMENTED
#   /getCaseInfo?case=I           one text message {"id": "1.1.1", "description": "..."}, then close
#   /getCaseStatus?case=I&agent=A one text message {"behavior": "OK"} once case I has finished for A, then close
#   /updateReports?agent=A        writes the reports (index.json and HTML) for every agent so far, then closes
# index.json: {"AGENT": {"1.1.1": {"behavior": "OK", "behaviorClose": "OK", "duration": 2, "remoteCloseCode": 1000,
#   "reportfile": "agent_case_1_1_1.json"}, ...}}. The case's .json has the expected/received traffic and the reason.
#
# Python: the suite is Python 2.7 code (implicit relative imports: on Python 3 `wstest` fails at once with
# "ModuleNotFoundError: No module named '_version'"). It needs a Python 2.7 interpreter: $PYTHON2, else pyenv's 2.7
# (the swift machine image's /root/.pyenv has 2.7.18), else python2.7 on PATH; Debian 12 packages none. In it, a
# virtual environment .venv-autobahn (virtualenv 20.15.1, the last that runs on 2.7) with the pins below from PyPI.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

WORK="$ROOT/.ci-work/autobahn"
ENV_FILE="$WORK/env"
VENV="$ROOT/.venv-autobahn"
DEFAULT_CASES="1.* 2.* 3.* 4.* 5.* 6.* 7.* 9.* 10.* 12.* 13.*"
# autobahntestsuite 25.10.1's own pins (its sdist's requires.txt; the sdist lacks the requirements.txt its setup.py
# reads, so pip installs it without them), plus the versions pip resolved for their dependencies on 2.7.
PINS=(txaio==2.1.0 incremental==16.10.1 pyOpenSSL==19.1.0 cryptography==3.3.2 Twisted==19.10.0 zope.interface==4.6.0
    Jinja2==2.11.3 MarkupSafe==1.1.1 Werkzeug==1.0.1 klein==17.10.0 service-identity==18.1.0 unittest2==1.1.0
    six==1.16.0 "autobahn[accelerate,twisted]==0.10.9" attrs==21.4.0 Automat==22.10.0 cffi==1.15.1
    constantly==15.1.0 enum34==1.1.10 hyperlink==21.0.0 idna==2.10 ipaddress==1.0.23 linecache2==1.0.0
    pyasn1==0.5.1 pyasn1-modules==0.3.0 pycparser==2.21 PyHamcrest==1.10.1 traceback2==1.4.0 typing==3.10.0.0
    ujson==2.0.3 wsaccel==0.6.6 argparse==1.4.0)

python2() {
    local candidate
    for candidate in "${PYTHON2:-}" "$(pyenv root 2>/dev/null || echo /root/.pyenv)"/versions/2.7*/bin/python2.7 \
        /root/.pyenv/versions/2.7*/bin/python2.7 "$(command -v python2.7 || true)"; do
        [ -n "$candidate" ] && [ -x "$candidate" ] || continue
        if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (2, 7))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    [ -x "$VENV/bin/wstest" ] && return 0
    local py2
    py2="$(python2)" || die "no Python 2.7 found (set PYTHON2): Autobahn|Testsuite's wstest runs on Python 2.7 only"
    mkdir -p "$WORK"
    "$py2" -m pip --version >/dev/null 2>&1 || "$py2" -m ensurepip >/dev/null
    "$py2" -m pip install --quiet --disable-pip-version-check --target "$WORK/virtualenv" virtualenv==20.15.1
    PYTHONPATH="$WORK/virtualenv" "$py2" -m virtualenv --quiet "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-python-version-warning "${PINS[@]}"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-python-version-warning --no-deps \
        autobahntestsuite==25.10.1
}

start() {
    if [ -f "$ENV_FILE" ] && [ -f "$WORK/fuzzingserver.pid" ] && kill -0 "$(cat "$WORK/fuzzingserver.pid")" 2>/dev/null
    then
        echo "fuzzing server already running (scripts/autobahn.sh stop first)" >&2
        return 0
    fi
    stop
    mkdir -p "$WORK"
    ensure_venv
    local port
    port="$(free_port)"
    rm -rf "$WORK/reports"
    python3 - "$WORK/spec.json" "$port" "$WORK/reports" "${AUTOBAHN_CASES:-$DEFAULT_CASES}" \
        "${AUTOBAHN_EXCLUDE:-}" "${AUTOBAHN_DEFLATE_SIZES:-18}" <<'PY'
import json, sys
path, port, outdir, cases, exclude, sizes = sys.argv[1:]
exclude = exclude.split() + [f"{group}.*.{size}" for group in (12, 13) for size in range(int(sizes) + 1, 19)]
spec = {"url": f"ws://127.0.0.1:{port}", "outdir": outdir, "cases": cases.split(), "exclude-cases": exclude,
        "exclude-agent-cases": {}}
with open(path, "w") as file:
    json.dump(spec, file, indent=2)
PY
    # -u 0: no embedded web server; the reports are files.
    start_server fuzzingserver "$port" bash -c "cd '$WORK' && exec '$VENV/bin/wstest' -m fuzzingserver \
        -s '$WORK/spec.json' -u 0"
    cat >"$ENV_FILE" <<ENV
export BOTHAM_AUTOBAHN_URL=ws://127.0.0.1:$port
export BOTHAM_AUTOBAHN_REPORTS=$WORK/reports
ENV
    echo "Autobahn fuzzing server on ws://127.0.0.1:$port: $(grep -m1 'will run' "$WORK/fuzzingserver.out")" >&2
}

report() {
    [ -f "$WORK/reports/index.json" ] || die "no report yet ($WORK/reports/index.json): run a testee first"
    python3 - "$WORK/reports" "$@" <<'PY'
import collections, json, os, sys
folder, wanted = sys.argv[1], sys.argv[2:]
with open(os.path.join(folder, "index.json")) as file:
    index = json.load(file)
status = 0
for agent in wanted or sorted(index):
    cases = index.get(agent)
    if not cases:
        print(f"{agent}: no results")
        status = 1
        continue
    order = lambda case: tuple(int(part) for part in case.split("."))
    behaviours = collections.Counter(result["behavior"] for result in cases.values())
    closes = collections.Counter(result["behaviorClose"] for result in cases.values())
    names = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"]
    counts = ", ".join(f"{name} {behaviours.get(name, 0)}" for name in names)
    others = ", ".join(f"{name} {count}" for name, count in behaviours.items() if name not in names)
    print(f"{agent}: {len(cases)} cases: {counts}" + (f", {others}" if others else ""))
    print(f"{agent}: closing behaviour: " + ", ".join(f"{name} {count}" for name, count in sorted(closes.items())))
    failed = sorted((case for case, result in cases.items() if result["behavior"] == "FAILED"), key=order)
    for case in failed:
        result = cases[case]
        detail = ""
        try:
            with open(os.path.join(folder, result["reportfile"])) as file:
                data = json.load(file)
            detail = f" - {data.get('description', '').strip()[:160]} | result: {data.get('result', '')[:200]}"
        except (OSError, ValueError):
            pass
        print(f"  FAILED {case} (close: {result['behaviorClose']}, remote close code {result.get('remoteCloseCode')})"
              f"{detail}")
    unimplemented = sorted((c for c, r in cases.items() if r["behavior"] == "UNIMPLEMENTED"), key=order)
    if unimplemented:
        groups = sorted({".".join(case.split(".")[:2]) for case in unimplemented}, key=order)
        print(f"{agent}: UNIMPLEMENTED in {', '.join(groups)}")
    # The gate: every case OK, NON-STRICT or INFORMATIONAL, in how it ran and how it closed; UNIMPLEMENTED only for
    # an agent named *nodeflate and only in the permessage-deflate groups (12.*, 13.*): a deflate agent whose
    # compression broke would leave those UNIMPLEMENTED, and that fails the run too.
    allowed = {"OK", "NON-STRICT", "INFORMATIONAL"}
    def accepted(case, result):
        if result["behavior"] == "UNIMPLEMENTED":
            return agent.endswith("nodeflate") and case.split(".")[0] in ("12", "13")
        return result["behavior"] in allowed and result["behaviorClose"] in allowed | {"UNIMPLEMENTED"}
    refused = sorted((case for case, result in cases.items() if not accepted(case, result)), key=order)
    for case in refused:
        if cases[case]["behavior"] != "FAILED":
            print(f"  NOT ACCEPTED {case}: {cases[case]['behavior']} (close: {cases[case]['behaviorClose']})")
    if failed or refused:
        status = 1
sys.exit(status)
PY
}

selftest() {
    [ -f "$ENV_FILE" ] || die "no fuzzing server running (scripts/autobahn.sh start first)"
    # shellcheck disable=SC1090
    source "$ENV_FILE"
    local python="$ROOT/.venv-ws/bin/python"
    [ -x "$python" ] || die "no .venv-ws (scripts/ws-servers.sh start makes it)"
    "$python" "$ROOT/scripts/autobahn_testee.py" "$BOTHAM_AUTOBAHN_URL" websockets
    "$python" "$ROOT/scripts/autobahn_testee.py" "$BOTHAM_AUTOBAHN_URL" websockets-nodeflate --no-deflate
    report websockets websockets-nodeflate
}

stop() {
    if [ -f "$WORK/fuzzingserver.pid" ]; then
        stop_pid "$(cat "$WORK/fuzzingserver.pid")"
        rm -f "$WORK/fuzzingserver.pid"
    fi
    rm -f "$ENV_FILE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
env) [ -f "$ENV_FILE" ] && cat "$ENV_FILE" ;;
selftest) selftest ;;
report)
    shift
    report "$@"
    ;;
*) die "usage: $0 start|env|selftest|report [AGENT…]|stop" ;;
esac
