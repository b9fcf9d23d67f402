"""The baseline of scripts/ws-bench.sh: the same echo workload as WebSocketBench, with PyPI's `websockets` client
(asyncio, its defaults but permessage-deflate, which neither client offers). Run with .venv-ws's python.

    ws_bench_client.py URL --size BYTES --connections N [--seconds S | --count N] [--warmup S]

Opens N sockets to URL (ws://HOST:PORT/echo), then on each: send a binary message of BYTES, await its echo, repeat,
for S seconds (default 3) or N round trips per socket, every socket at once on one event loop. Prints one line,
`RESULT client=python key=value …`, with the keys WebSocketBench prints: messages, warmup_messages, seconds, msgs_per_s,
cpu_us_per_msg (resource.getrusage(RUSAGE_SELF) user + system over the measured window, divided by the round trips),
cpu_cores, p50_us, p99_us, max_us (every round trip of every socket).
"""

import argparse
import asyncio
import math
import resource
import sys
import time

from websockets.asyncio.client import connect


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def echo_loop(socket, payload, deadline, count, latencies):
    done = 0
    clock = time.perf_counter_ns
    while (done < count) if count > 0 else (clock() < deadline):
        started = clock()
        await socket.send(payload)
        echo = await socket.recv()
        if len(echo) != len(payload):
            raise RuntimeError(f"an echo of {len(echo)} octets for {len(payload)}")
        latencies.append(clock() - started)
        done += 1
    return done


async def echo_all(sockets, payload, seconds, count):
    started = time.perf_counter_ns()
    deadline = started + int(seconds * 1e9)
    latencies = [[] for _ in sockets]
    done = await asyncio.gather(*(echo_loop(s, payload, deadline, count, l) for s, l in zip(sockets, latencies)))
    wall = time.perf_counter_ns() - started
    return sum(done), wall, [value for each in latencies for value in each]


def percentile(ordered, fraction):
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(len(ordered) * fraction) - 1))
    return ordered[index] / 1000


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--warmup", type=float, default=0.5)
    options = parser.parse_args()
    payload = bytes(i % 256 for i in range(options.size))
    sockets = [await connect(options.url, compression=None, max_size=max(options.size, 1 << 20))
               for _ in range(max(1, options.connections))]
    warmup_messages = 0
    if options.warmup > 0:
        warmup_messages = (await echo_all(sockets, payload, options.warmup, 0))[0]
    cpu_before = cpu_seconds()
    messages, wall, latencies = await echo_all(sockets, payload, options.seconds, options.count)
    cpu = cpu_seconds() - cpu_before
    for socket in sockets:
        await socket.close()
    latencies.sort()
    seconds = wall / 1e9
    print(f"RESULT client=python size={options.size} connections={len(sockets)} messages={messages}"
          f" warmup_messages={warmup_messages} seconds={seconds:.3f} msgs_per_s={messages / seconds:.3f}"
          f" cpu_us_per_msg={cpu * 1e6 / max(1, messages):.3f} cpu_cores={cpu / seconds:.3f}"
          f" p50_us={percentile(latencies, 0.5):.3f} p99_us={percentile(latencies, 0.99):.3f}"
          f" max_us={percentile(latencies, 1):.3f}", flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except Exception as error:  # noqa: BLE001 - any failure fails the run, named
        print(f"ws_bench_client.py: {error!r}", file=sys.stderr)
        sys.exit(1)
