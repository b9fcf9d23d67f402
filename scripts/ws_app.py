"""The WebSocket server (PyPI's `websockets`, asyncio) the WebSocket interop tests use (scripts/ws-servers.sh).

    python ws_app.py PORT    serves plain ws:// on 127.0.0.1:PORT (nginx proxies wss:// to it)

Every path answers the HTTP/1.1 Upgrade handshake of RFC 6455; anything not listed answers 404 before it.
permessage-deflate (RFC 7692) is offered on every path but /nodeflate: websockets' defaults, that is with context
takeover both ways, and server_max_window_bits=12 when the client does not ask for less.

  /echo                 echoes every message back, text as text and binary as binary, until the client closes
  /subprotocol          selects `chat.v2` when the client offers it (among any others), else no subprotocol; then
                        sends, as its first text message, the subprotocol it selected ("" for none), then echoes
  /close?code=N&reason=R
                        closes at once after the handshake with code N (default 1000) and reason R (default "")
  /deflate              echo; permessage-deflate with context takeover (the same as /echo, named for the tests)
  /nodeflate            echo; declines permessage-deflate (no Sec-WebSocket-Extensions in the response)
  /auth                 401 with `WWW-Authenticate: Bearer realm="botham"` unless the request carries
                        `Authorization: Bearer good`; then echo
  /redirect             302 to /echo (Location: /echo)
  /headers              sends, as its first text message, a JSON object of the handshake's request headers (names
                        lower-cased; a repeated header's values joined with ", "); then echoes
  /count?n=N            sends N binary messages of 65536 octets each (the first 4 octets: the message's index,
                        big-endian; the rest: octet i is i % 251), then closes with 1000; N at most 1048576
  /slowclose            upgrades, then reads and ignores everything: never answers a message nor the client's close
                        frame, never closes the TCP connection (it drops it only when the client does, or after
                        120 s), for the client's close timeout

Messages up to 64 MiB are accepted (max_size); the server sends no keep-alive pings (ping_interval=None).
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve

PATTERN = bytes(i % 251 for i in range(251))
COUNT_MESSAGE_SIZE = 65536
COUNT_BODY = (PATTERN * (COUNT_MESSAGE_SIZE // len(PATTERN) + 1))[: COUNT_MESSAGE_SIZE - 4]
PATHS = {"/echo", "/subprotocol", "/close", "/deflate", "/nodeflate", "/auth", "/redirect", "/headers", "/count",
         "/slowclose"}


def split(path):
    parts = urlsplit(path)
    return parts.path, parse_qs(parts.query)


def process_request(connection, request):
    path, _ = split(request.path)
    if path not in PATHS:
        return connection.respond(404, "no such WebSocket path\n")
    if path == "/redirect":
        response = connection.respond(302, "see /echo\n")
        response.headers["Location"] = "/echo"
        return response
    if path == "/auth" and request.headers.get("Authorization") != "Bearer good":
        response = connection.respond(401, "a bearer token is required\n")
        response.headers["WWW-Authenticate"] = 'Bearer realm="botham"'
        return response
    if path == "/nodeflate":
        # Runs before the handshake's negotiation (ServerConnection.handshake calls process_request first), so the
        # server offers no extension on this connection only.
        connection.protocol.available_extensions = []
    return None


def select_subprotocol(connection, subprotocols):
    path, _ = split(connection.request.path)
    if path == "/subprotocol" and "chat.v2" in subprotocols:
        return "chat.v2"
    return None


async def echo(connection):
    async for message in connection:
        await connection.send(message)


class Silent(asyncio.Protocol):
    """Takes a connection's transport away from websockets: reads and ignores every octet, answers nothing."""

    def __init__(self):
        self.lost = asyncio.get_running_loop().create_future()

    def data_received(self, data):
        pass

    def connection_lost(self, exc):
        if not self.lost.done():
            self.lost.set_result(None)


async def handler(connection):
    path, query = split(connection.request.path)
    if path == "/subprotocol":
        await connection.send(connection.subprotocol or "")
        await echo(connection)
    elif path == "/close":
        code = int(query.get("code", ["1000"])[0])
        reason = query.get("reason", [""])[0]
        await connection.close(code, reason)
    elif path == "/headers":
        headers = {}
        for name, value in connection.request.headers.raw_items():
            key = name.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        await connection.send(json.dumps(headers, sort_keys=True))
        await echo(connection)
    elif path == "/count":
        count = min(int(query.get("n", ["1"])[0]), 1 << 20)
        for index in range(count):
            await connection.send(index.to_bytes(4, "big") + COUNT_BODY)
        await connection.close(1000, "")
    elif path == "/slowclose":
        # From here on websockets no longer sees the socket: the client's frames, its close frame included, go
        # unanswered and the TCP connection stays open until the client drops it (or 120 s pass).
        silent = Silent()
        connection.transport.set_protocol(silent)
        try:
            await asyncio.wait_for(silent.lost, 120)
        except asyncio.TimeoutError:
            connection.transport.abort()
    else:  # /echo, /deflate, /nodeflate, /auth
        await echo(connection)


async def main(port):
    async with serve(handler, "127.0.0.1", port, process_request=process_request,
                     select_subprotocol=select_subprotocol, max_size=64 << 20, ping_interval=None,
                     close_timeout=10) as server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
