"""The ASGI application hypercorn serves for the HTTP/2 interop tests (scripts/h2-servers.sh).

  GET  /bytes/N   N octets, octet i being i % 251 (in 64 KiB chunks)
  POST /echo      the request body back, with x-received-length
  GET  /stall     a head and 1000 octets of an announced 2000, then nothing for 30 s (idle timeouts)
  GET  /redirect  302 to /bytes/10
  GET  /gzip      "hello over h2, gzipped" x 100, with content-encoding: gzip
  anything else   404
"""

import asyncio
import gzip

PATTERN = bytes(i % 251 for i in range(251))


def pattern(count):
    whole, rest = divmod(count, len(PATTERN))
    return PATTERN * whole + PATTERN[:rest]


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    path, method = scope["path"], scope["method"]
    if method == "GET" and path.startswith("/bytes/") and path[7:].isdigit():
        body = pattern(int(path[7:]))
        headers = [(b"content-type", b"application/octet-stream"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for start in range(0, len(body), 65536):
            await send({"type": "http.response.body", "body": body[start:start + 65536], "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    elif method == "POST" and path == "/echo":
        received = bytearray()
        while True:
            message = await receive()
            received += message.get("body", b"")
            if not message.get("more_body", False):
                break
        headers = [(b"content-type", b"application/octet-stream"), (b"x-received-length", str(len(received)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": bytes(received)})
    elif method == "GET" and path == "/stall":
        headers = [(b"content-type", b"application/octet-stream"), (b"content-length", b"2000")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": pattern(1000), "more_body": True})
        await asyncio.sleep(30)
        await send({"type": "http.response.body", "body": pattern(1000)})
    elif method == "GET" and path == "/redirect":
        await send({"type": "http.response.start", "status": 302, "headers": [(b"location", b"/bytes/10")]})
        await send({"type": "http.response.body", "body": b""})
    elif method == "GET" and path == "/gzip":
        body = gzip.compress(b"hello over h2, gzipped" * 100)
        headers = [(b"content-encoding", b"gzip"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    else:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"not found"})
