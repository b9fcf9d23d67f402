"""The ASGI application hypercorn serves for the HTTP/2 interop tests (scripts/h2-servers.sh).

  GET  /bytes/N   N octets, octet i being i % 251 (in 64 KiB chunks)
  POST /echo      the request body back, with x-received-length
  anything else   404
"""

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
    else:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"not found"})
