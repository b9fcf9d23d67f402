"""A small REST API for the interop tests: GitHub-style paging and rate limits (stdlib only, a WSGI app).

scripts/httpbin.sh starts it next to httpbin, with the same gunicorn, as ONE process with threads (its counters
live in memory and must be shared by every request), and prints its URL with `scripts/httpbin.sh api-url`; the
tests read it from API_APP_URL (Tests/BothamNetworkingInteropTests/APIApp.swift).

Every endpoint keys its state by a client-chosen id, the `id` query parameter or else the `X-Test-Id` header, so
tests running side by side never share a budget or a counter. Windows are short (1-2 s) so the tests stay fast.

GET /health
    200 "ok" (the readiness probe).
GET /items?page=N&per_page=M&total=T&links=absolute|path|relative|other-origin
    The integers (N-1)*M+1 ... N*M (at most T, default 10; per_page default 3) as a JSON array, with GitHub's
    `Link: <...>; rel="next", <...>; rel="last"` (and rel="prev", rel="first" after the first page); a page past
    the last is `[]`. The links repeat the request's query with another page. `links` picks the references:
    absolute URLs on the request's Host (GitHub's form, the default), absolute paths (`</items?...>`), relative
    references (`<items?...>`), or absolute URLs on the other loopback name (127.0.0.1 <-> localhost).
GET /cursor?cursor=C&limit=M&total=T
    {"items": [...], "next_cursor": "opaque" | null}: M integers (default 3) from the cursor's offset (none: from
    1), at most T in all (default 10). An unknown cursor is a 400.
GET|POST /limited?id=X&limit=N&window=W&style=github|ietf|ietf-07|both
    A budget of N requests (default 3) per fixed window for X. The window starts with X's first request after the
    previous one ended and ends W seconds later (default 1), rounded up to a whole second of the epoch so that
    GitHub's reset time is exact. Every answer carries the budget:
      github: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Reset (epoch seconds),
              X-RateLimit-Resource: core
      ietf:   RateLimit-Policy: "default";q=N;w=W and RateLimit: "default";r=REMAINING;t=SECONDS_TO_RESET
              (draft-ietf-httpapi-ratelimit-headers, structured fields, draft-08 and later)
      ietf-07: RateLimit-Policy: N;w=W and RateLimit: limit=N, remaining=REMAINING, reset=SECONDS_TO_RESET
      both:    github and ietf
    A request beyond the budget is a 429 with Retry-After (whole seconds until the reset, at least 1) and
    remaining 0; it does not count against the next window.
GET|POST|PUT|PATCH|DELETE /flaky?id=X&failures=K&status=429|503&retry_after=S&retry_after_ms=MS
    The first K requests for X (default 2) answer `status` (default 429) with `Retry-After: S` and/or
    `retry-after-ms: MS` when given, and a JSON body {"attempt": n, "idempotency_key": ...}; later ones answer 200
    with {"attempts": n, "idempotency_keys": [...], "methods": [...], "times": [...]}: the Idempotency-Key each
    attempt carried (null when none), in order, and when each arrived (epoch seconds).
GET /slow?id=X&ms=M
    Answers after M ms (default 200, at most 5000) with {"in_flight": n}: how many requests for X the app was
    serving when this one arrived, itself included (a client-side concurrency limit of 1 keeps it at 1).
GET /stats?id=X
    {"requests": [{"method", "path", "query", "status", "time", "idempotency_key"}, ...]}: every request for X.

Run alone: python3 scripts/api_app.py [PORT] (wsgiref, one thread; for a look, not for the tests).
"""

import base64
import json
import math
import threading
import time
from urllib.parse import parse_qsl, urlencode

_lock = threading.Lock()
_requests = {}  # id -> [record]
_windows = {}  # id -> (reset_at, used)
_flaky = {}  # id -> attempts
_in_flight = {}  # id -> requests of /slow being served
_FORGET_AFTER = 600  # seconds: state of ids older than this is dropped


def _forget_old(now):
    stale = [key for key, records in _requests.items() if records and now - records[-1]["time"] > _FORGET_AFTER]
    for key in stale:
        _requests.pop(key, None)
        _windows.pop(key, None)
        _flaky.pop(key, None)
        _in_flight.pop(key, None)


def _int(query, name, default, low=0, high=1_000_000):
    try:
        value = int(query.get(name, default))
    except ValueError:
        raise _BadRequest(f"{name} must be an integer")
    if not low <= value <= high:
        raise _BadRequest(f"{name} must be in {low}...{high}")
    return value


class _BadRequest(Exception):
    pass


def _json(status, value, headers=()):
    body = json.dumps(value).encode()
    return status, [("Content-Type", "application/json"), *headers], body


def _page_link(environ, query, page, style):
    fields = dict(query)
    fields["page"] = str(page)
    target = "items?" + urlencode(fields)
    host = environ.get("HTTP_HOST") or f"{environ['SERVER_NAME']}:{environ['SERVER_PORT']}"
    if style == "relative":
        return target
    if style == "path":
        return "/" + target
    if style == "other-origin":
        if host.startswith("127.0.0.1"):
            host = "localhost" + host[len("127.0.0.1") :]
        elif host.startswith("localhost"):
            host = "127.0.0.1" + host[len("localhost") :]
    return f"http://{host}/{target}"


def items(environ, query):
    page = _int(query, "page", 1, low=1)
    per_page = _int(query, "per_page", 3, low=1, high=100)
    total = _int(query, "total", 10)
    style = query.get("links", "absolute")
    if style not in ("absolute", "path", "relative", "other-origin"):
        raise _BadRequest("links must be absolute, path, relative or other-origin")
    last = max(1, math.ceil(total / per_page))
    start = (page - 1) * per_page + 1
    values = list(range(start, min(start + per_page - 1, total) + 1))
    relations = []
    if page > 1:
        relations.append(("prev", page - 1))
    if page < last:
        relations += [("next", page + 1), ("last", last)]
    if page > 1:
        relations.append(("first", 1))
    links = ", ".join(f'<{_page_link(environ, query, target, style)}>; rel="{rel}"' for rel, target in relations)
    return _json("200 OK", values, [("Link", links)] if links else [])


def _encode_cursor(offset):
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def _decode_cursor(cursor):
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        name, offset = text.split(":")
        if name != "offset":
            raise ValueError
        return int(offset)
    except ValueError:
        raise _BadRequest("unknown cursor")


def cursor(environ, query):
    limit = _int(query, "limit", 3, low=1, high=100)
    total = _int(query, "total", 10)
    offset = _decode_cursor(query["cursor"]) if query.get("cursor") else 0
    values = list(range(offset + 1, min(offset + limit, total) + 1))
    following = offset + limit
    return _json("200 OK", {"items": values, "next_cursor": _encode_cursor(following) if following < total else None})


def limited(environ, query, client, now):
    limit = _int(query, "limit", 3, low=1)
    window = _int(query, "window", 1, low=1, high=60)
    style = query.get("style", "github")
    if style not in ("github", "ietf", "ietf-07", "both"):
        raise _BadRequest("style must be github, ietf, ietf-07 or both")
    with _lock:
        reset_at, used = _windows.get(client, (0, 0))
        if now >= reset_at:
            reset_at, used = math.ceil(now + window), 0
        allowed = used < limit
        if allowed:
            used += 1
        _windows[client] = (reset_at, used)
    remaining = limit - used if allowed else 0
    until_reset = max(1, math.ceil(reset_at - now))
    headers = []
    if style in ("github", "both"):
        headers += [
            ("X-RateLimit-Limit", str(limit)),
            ("X-RateLimit-Remaining", str(remaining)),
            ("X-RateLimit-Used", str(used)),
            ("X-RateLimit-Reset", str(reset_at)),
            ("X-RateLimit-Resource", "core"),
        ]
    if style in ("ietf", "both"):
        headers += [
            ("RateLimit-Policy", f'"default";q={limit};w={window}'),
            ("RateLimit", f'"default";r={remaining};t={until_reset}'),
        ]
    if style == "ietf-07":
        headers += [
            ("RateLimit-Policy", f"{limit};w={window}"),
            ("RateLimit", f"limit={limit}, remaining={remaining}, reset={until_reset}"),
        ]
    if not allowed:
        headers.append(("Retry-After", str(until_reset)))
        return _json("429 Too Many Requests", {"message": "API rate limit exceeded"}, headers)
    return _json("200 OK", {"remaining": remaining}, headers)


def flaky(environ, query, client, now, key):
    failures = _int(query, "failures", 2)
    status = _int(query, "status", 429, low=400, high=599)
    with _lock:
        attempt = _flaky.get(client, 0) + 1
        _flaky[client] = attempt
        records = [r for r in _requests.get(client, []) if r["path"] == "/flaky"]
    if attempt <= failures:
        headers = []
        if "retry_after" in query:
            headers.append(("Retry-After", query["retry_after"]))
        if "retry_after_ms" in query:
            headers.append(("retry-after-ms", query["retry_after_ms"]))
        reason = {429: "Too Many Requests", 503: "Service Unavailable"}.get(status, "Error")
        return _json(f"{status} {reason}", {"attempt": attempt, "idempotency_key": key}, headers)
    records.append({"method": environ["REQUEST_METHOD"], "time": now, "idempotency_key": key})
    return _json(
        "200 OK",
        {
            "attempts": attempt,
            "idempotency_keys": [r["idempotency_key"] for r in records],
            "methods": [r["method"] for r in records],
            "times": [r["time"] for r in records],
        },
    )


def slow(environ, query, client):
    milliseconds = _int(query, "ms", 200, high=5000)
    with _lock:
        in_flight = _in_flight.get(client, 0) + 1
        _in_flight[client] = in_flight
    try:
        time.sleep(milliseconds / 1000)
    finally:
        with _lock:
            _in_flight[client] -= 1
    return _json("200 OK", {"in_flight": in_flight})


def stats(environ, query, client):
    with _lock:
        records = list(_requests.get(client, []))
    return _json("200 OK", {"requests": records})


def app(environ, start_response):
    now = time.time()
    path = environ.get("PATH_INFO", "/")
    query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
    client = query.get("id") or environ.get("HTTP_X_TEST_ID") or ""
    key = environ.get("HTTP_IDEMPOTENCY_KEY")
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > 0:
        environ["wsgi.input"].read(min(length, 1 << 20))  # the body is not used, only read
    try:
        if path == "/health":
            status, headers, body = "200 OK", [("Content-Type", "text/plain")], b"ok"
        elif path == "/items":
            status, headers, body = items(environ, query)
        elif path == "/cursor":
            status, headers, body = cursor(environ, query)
        elif path == "/stats":
            if not client:
                raise _BadRequest("stats needs an id")
            status, headers, body = stats(environ, query, client)
        elif path in ("/limited", "/flaky", "/slow"):
            if not client:
                raise _BadRequest(f"{path} needs an id (query `id` or header X-Test-Id)")
            if path == "/limited":
                status, headers, body = limited(environ, query, client, now)
            elif path == "/flaky":
                status, headers, body = flaky(environ, query, client, now, key)
            else:
                status, headers, body = slow(environ, query, client)
        else:
            status, headers, body = _json("404 Not Found", {"message": "Not Found"})
    except _BadRequest as error:
        status, headers, body = _json("400 Bad Request", {"message": str(error)})
    if client and path != "/stats":
        record = {
            "method": environ["REQUEST_METHOD"],
            "path": path,
            "query": environ.get("QUERY_STRING", ""),
            "status": int(status.split()[0]),
            "time": now,
            "idempotency_key": key,
        }
        with _lock:
            _forget_old(now)
            _requests.setdefault(client, []).append(record)
    start_response(status, [*headers, ("Content-Length", str(len(body)))])
    return [body]


if __name__ == "__main__":
    import sys
    from wsgiref.simple_server import make_server

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    with make_server("127.0.0.1", port, app) as server:
        print(f"http://127.0.0.1:{port}", flush=True)
        server.serve_forever()
