"""A reference testee for the Autobahn|Testsuite fuzzing server: PyPI's `websockets` client (scripts/autobahn.sh).

    python autobahn_testee.py ws://127.0.0.1:PORT AGENT [--no-deflate]

Drives the fuzzing server's protocol (described in scripts/autobahn.sh): asks /getCaseCount, runs each case by
echoing every message of /runCase?case=N&agent=AGENT until the server closes, then asks /updateReports?agent=AGENT.
It shows the suite runs here and what a passing testee's report looks like; the Swift testee follows the same steps.
"""

import os
import sys

# websockets fails a message of more than 4096 fragments with 1009 "too many fragments" by default; 9.3.* and 9.4.*
# send 4 MiB in fragments of 64 octets.
os.environ.setdefault("WEBSOCKETS_MAX_FRAGMENTS", "100000")

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect


def main():
    base, agent = sys.argv[1], sys.argv[2]
    compression = None if "--no-deflate" in sys.argv[3:] else "deflate"
    with connect(f"{base}/getCaseCount", open_timeout=10) as ws:
        count = int(ws.recv(timeout=10))
    print(f"{count} cases", flush=True)
    for case in range(1, count + 1):
        try:
            with connect(f"{base}/runCase?case={case}&agent={agent}", compression=compression, max_size=None,
                         open_timeout=10, close_timeout=5) as ws:
                for message in ws:
                    ws.send(message)
        except ConnectionClosed:
            pass
        except (WebSocketException, OSError, TimeoutError) as error:
            print(f"case {case}: {type(error).__name__}: {error}", flush=True)
    with connect(f"{base}/updateReports?agent={agent}", open_timeout=10) as ws:
        try:
            ws.recv(timeout=60)
        except ConnectionClosed:
            pass


if __name__ == "__main__":
    main()
