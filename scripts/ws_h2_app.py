"""The ASGI application hypercorn serves for the WebSockets-over-HTTP/2 tests (RFC 8441; scripts/ws-servers.sh).

hypercorn (PyPI 0.18) announces SETTINGS_ENABLE_CONNECT_PROTOCOL=1 on its HTTP/2 connections and turns an extended
CONNECT (:method CONNECT, :protocol websocket) into an ASGI `websocket` scope; it also accepts the HTTP/1.1 Upgrade.
Its WebSocket layer (PyPI's wsproto) accepts permessage-deflate when the client offers it (answering, e.g.,
`permessage-deflate; client_max_window_bits=15`). It answers 400 to DATA that arrives on the stream before the app
accepted, so a client sends frames only after the :status 200.

  websocket /echo          echoes every message back, text as text and binary as binary; selects `chat.v2` when
                           the client offers it
  websocket /close?code=N  closes at once after the handshake with code N (default 1000)
  websocket anything else  refused before the handshake (HTTP 403)
  GET /                    "hello over h2" (a plain request on the same connection, for pooling tests)
"""

from urllib.parse import parse_qs


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http":
        body = b"hello over h2\n" if scope["path"] == "/" else b"not found\n"
        headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200 if scope["path"] == "/" else 404,
                    "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    if scope["type"] != "websocket":
        return
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    path = scope["path"]
    if path == "/echo":
        accept = {"type": "websocket.accept"}
        if "chat.v2" in scope.get("subprotocols", []):
            accept["subprotocol"] = "chat.v2"
        await send(accept)
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("bytes") is not None:
                await send({"type": "websocket.send", "bytes": message["bytes"]})
            else:
                await send({"type": "websocket.send", "text": message.get("text") or ""})
    elif path == "/close":
        code = int(parse_qs(scope.get("query_string", b"").decode()).get("code", ["1000"])[0])
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": code})
    else:
        await send({"type": "websocket.close", "code": 1000})
