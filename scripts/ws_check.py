"""Checks the servers of scripts/ws-servers.sh with independent clients (`scripts/ws-servers.sh check`).

Reads the BOTHAM_TEST_WS* variables; prints `OK <server> <behaviour>` per check and exits 1 at the first failure.
Clients: websockets' synchronous client (HTTP/1.1 Upgrade, ws:// and wss://), raw sockets for the plain HTTP
answers (401, 302), and PyPI's h2 for RFC 8441 extended CONNECT (hypercorn, h2c and TLS).
"""

import base64
import hashlib
import json
import os
import socket
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"ws_check: {name} is not set (eval \"$(scripts/ws-servers.sh env)\")")
    return value


def ok(server, behaviour):
    print(f"OK {server:<22} {behaviour}", flush=True)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def raw_handshake(address, path, headers=(), ssl_context=None):
    """Sends an Upgrade request on a fresh socket (TLS when given a context); returns the response's head."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=5) as plain:
        sock = ssl_context.wrap_socket(plain, server_hostname=host) if ssl_context else plain
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {address}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", *headers]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
    return head.split(b"\r\n\r\n", 1)[0].decode("latin-1")


def check_websockets(address, scheme="ws", ssl_context=None, server="websockets"):
    base = f"{scheme}://{address}"
    kwargs = {"ssl": ssl_context} if ssl_context else {}
    with connect(f"{base}/echo", open_timeout=5, **kwargs) as ws:
        ws.send("hello")
        expect(ws.recv(timeout=5) == "hello", "text echo")
        ws.send(b"\x00\x01\xff")
        expect(ws.recv(timeout=5) == b"\x00\x01\xff", "binary echo")
    ok(server, f"{base}/echo echoes text and binary")

    with connect(f"{base}/subprotocol", subprotocols=["chat.v1", "chat.v2"], open_timeout=5, **kwargs) as ws:
        expect(ws.subprotocol == "chat.v2", f"subprotocol {ws.subprotocol!r}")
        expect(ws.recv(timeout=5) == "chat.v2", "announced subprotocol")
    with connect(f"{base}/subprotocol", subprotocols=["chat.v1"], open_timeout=5, **kwargs) as ws:
        expect(ws.subprotocol is None, f"subprotocol {ws.subprotocol!r}")
        expect(ws.recv(timeout=5) == "", "announced no subprotocol")
    ok(server, "/subprotocol selects chat.v2 among chat.v1, chat.v2; none when chat.v2 is not offered")

    with connect(f"{base}/deflate", open_timeout=5, **kwargs) as ws:
        deflate = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        expect("permessage-deflate" in deflate, f"extensions {deflate!r}")
        for _ in range(3):  # context takeover: the same message compresses better each time; it must still echo
            ws.send("compress me " * 100)
            expect(ws.recv(timeout=5) == "compress me " * 100, "deflate echo")
    with connect(f"{base}/nodeflate", open_timeout=5, **kwargs) as ws:
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
        expect(extensions is None, f"extensions {extensions!r}")
        ws.send("plain")
        expect(ws.recv(timeout=5) == "plain", "nodeflate echo")
    ok(server, f"/deflate negotiates {deflate!r}; /nodeflate declines it")

    for code, reason in ((1000, ""), (1011, "oops"), (4001, "custom reason")):
        with connect(f"{base}/close?code={code}&reason={reason.replace(' ', '%20')}", open_timeout=5,
                     **kwargs) as ws:
            try:
                ws.recv(timeout=5)
                raise AssertionError("no close")
            except ConnectionClosed as closed:
                expect(closed.rcvd is not None and closed.rcvd.code == code and closed.rcvd.reason == reason,
                       f"close {closed.rcvd}")
    ok(server, "/close?code=N&reason=R closes with 1000, 1011 'oops', 4001 'custom reason'")

    head = raw_handshake(address, "/auth", ssl_context=ssl_context)
    expect(head.startswith("HTTP/1.1 401"), head.splitlines()[0])
    expect('\r\nWWW-Authenticate: Bearer realm="botham"' in head, head)
    with connect(f"{base}/auth", additional_headers={"Authorization": "Bearer good"}, open_timeout=5,
                 **kwargs) as ws:
        ws.send("authorized")
        expect(ws.recv(timeout=5) == "authorized", "auth echo")
    ok(server, "/auth answers 401 WWW-Authenticate: Bearer without the token, upgrades with it")

    head = raw_handshake(address, "/redirect", ssl_context=ssl_context)
    expect(head.startswith("HTTP/1.1 302") and "\r\nLocation: /echo" in head, head)
    ok(server, "/redirect answers 302 Location: /echo")

    with connect(f"{base}/headers", additional_headers={"X-Botham": "yes", "Cookie": "a=1"}, open_timeout=5,
                 **kwargs) as ws:
        headers = json.loads(ws.recv(timeout=5))
        expect(headers.get("x-botham") == "yes" and headers.get("cookie") == "a=1", f"headers {headers}")
    ok(server, "/headers sends back the handshake's request headers as JSON")

    with connect(f"{base}/count?n=5", open_timeout=5, **kwargs) as ws:
        messages = []
        try:
            while True:
                messages.append(ws.recv(timeout=5))
        except ConnectionClosed as closed:
            expect(closed.rcvd is not None and closed.rcvd.code == 1000, f"close {closed.rcvd}")
        expect(len(messages) == 5 and all(len(m) == 65536 for m in messages), "count")
        expect([int.from_bytes(m[:4], "big") for m in messages] == list(range(5)), "indices")
    ok(server, "/count?n=5 sends 5 binary messages of 65536 octets, then closes 1000")

    with connect(f"{base}/slowclose", open_timeout=5, close_timeout=1, **kwargs) as ws:
        started = time.monotonic()
        ws.close()
        waited = time.monotonic() - started
    expect(waited >= 0.9 and ws.protocol.close_rcvd is None, f"close answered after {waited:.2f} s")
    ok(server, f"/slowclose never answers the close frame (the client gave up after {waited:.1f} s)")

    head = raw_handshake(address, "/nowhere", ssl_context=ssl_context)
    expect(head.startswith("HTTP/1.1 404"), head.splitlines()[0])
    ok(server, "an unknown path answers 404 before the upgrade")


def h2_extended_connect(address, ssl_context=None, server="hypercorn h2c"):
    """RFC 8441: reads the server's SETTINGS, opens /echo with an extended CONNECT and echoes one masked frame."""
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=5)
    if ssl_context:
        ssl_context.set_alpn_protocols(["h2"])
        sock = ssl_context.wrap_socket(sock, server_hostname=host)
        expect(sock.selected_alpn_protocol() == "h2", f"ALPN {sock.selected_alpn_protocol()}")
    try:
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        connection.initiate_connection()
        sock.sendall(connection.data_to_send())
        settings = None
        while settings is None:
            data = sock.recv(65536)
            expect(data, "connection closed before SETTINGS")
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.RemoteSettingsChanged):
                    settings = {code: change.new_value for code, change in event.changed_settings.items()}
            sock.sendall(connection.data_to_send())
        enable = settings.get(h2.settings.SettingCodes.ENABLE_CONNECT_PROTOCOL)
        expect(enable == 1, f"SETTINGS_ENABLE_CONNECT_PROTOCOL {enable} in {settings}")
        ok(server, f"SETTINGS_ENABLE_CONNECT_PROTOCOL=1 (all settings: "
           f"{ {getattr(k, 'name', k): v for k, v in settings.items()} })")
        # The frame goes only after the 200: hypercorn answers 400 to DATA that arrives before its app accepted.
        stream = open_stream(sock, connection, address, ssl_context, [("sec-websocket-protocol", "chat.v1, chat.v2")])
        expect(stream.headers.get(b":status") == b"200", f"response {stream.headers}")
        expect(stream.headers.get(b"sec-websocket-protocol") == b"chat.v2", f"response {stream.headers}")
        expect(b"sec-websocket-extensions" not in stream.headers, f"response {stream.headers}")
        payload = b"hello over RFC 8441"
        mask = os.urandom(4)
        frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        connection.send_data(stream.id, frame)
        sock.sendall(connection.data_to_send())
        pump(sock, connection, stream, lambda: len(stream.data) >= 2 + len(payload))
        expect(stream.data == bytes([0x81, len(payload)]) + payload, f"echo {stream.data!r}")
        ok(server, "extended CONNECT :protocol websocket /echo -> :status 200, sec-websocket-protocol chat.v2, "
           "echoed an unmasked text frame")
        deflate = open_stream(sock, connection, address, ssl_context,
                              [("sec-websocket-extensions", "permessage-deflate; client_max_window_bits")])
        expect(deflate.headers.get(b":status") == b"200", f"response {deflate.headers}")
        extensions = deflate.headers.get(b"sec-websocket-extensions", b"").decode()
        expect(extensions.startswith("permessage-deflate"), f"response {deflate.headers}")
        ok(server, f"a second extended CONNECT on the same connection offering permessage-deflate -> {extensions!r}")
        connection.close_connection()
        sock.sendall(connection.data_to_send())
    finally:
        sock.close()


class Stream:
    def __init__(self, stream_id):
        self.id, self.headers, self.data = stream_id, None, b""


def pump(sock, connection, stream, done):
    """Reads frames until done() holds (5 s at most), collecting the stream's response head and data."""
    deadline = time.monotonic() + 5
    while not done():
        expect(time.monotonic() < deadline, "no answer within 5 s")
        data = sock.recv(65536)
        expect(data, "connection closed")
        for event in connection.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream.id:
                stream.headers = dict(event.headers)
            elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream.id:
                stream.data += event.data
                connection.acknowledge_received_data(event.flow_controlled_length, stream.id)
            elif isinstance(event, h2.events.StreamReset) and event.stream_id == stream.id:
                raise AssertionError(f"stream reset {event.error_code}")
        sock.sendall(connection.data_to_send())


def open_stream(sock, connection, address, ssl_context, headers):
    """Sends an extended CONNECT for /echo and waits for its response head."""
    stream = Stream(connection.get_next_available_stream_id())
    connection.send_headers(stream.id, [(":method", "CONNECT"), (":protocol", "websocket"),
                                        (":scheme", "https" if ssl_context else "http"), (":path", "/echo"),
                                        (":authority", address), ("sec-websocket-version", "13"), *headers])
    sock.sendall(connection.data_to_send())
    pump(sock, connection, stream, lambda: stream.headers is not None)
    return stream


def h1_upgrade_on_h2_server(address):
    """hypercorn also speaks the HTTP/1.1 Upgrade on its h2c port (a client without RFC 8441 support)."""
    with connect(f"ws://{address}/echo", open_timeout=5) as ws:
        ws.send("hello")
        expect(ws.recv(timeout=5) == "hello", "echo")
    ok("hypercorn h2c", "HTTP/1.1 Upgrade to /echo also works on the same port")


def main():
    ws = env("BOTHAM_TEST_WS")
    check_websockets(ws)

    ca = env("BOTHAM_TEST_WSS_CA")
    pin = env("BOTHAM_TEST_WSS_PIN")
    nginx = env("BOTHAM_TEST_WSS_NGINX")
    context = ssl.create_default_context(cafile=ca)
    check_websockets(nginx, "wss", context, "nginx wss")
    with socket.create_connection(tuple_address(nginx), timeout=5) as sock:
        with ssl.create_default_context(cafile=ca).wrap_socket(sock, server_hostname="127.0.0.1") as tls:
            der = tls.getpeercert(binary_form=True)
    expect(spki_pin(der) == pin, f"pin {spki_pin(der)} != {pin}")
    ok("nginx wss", "the certificate verifies against BOTHAM_TEST_WSS_CA and matches BOTHAM_TEST_WSS_PIN")
    try:
        with socket.create_connection(tuple_address(nginx), timeout=5) as sock:
            ssl.create_default_context().wrap_socket(sock, server_hostname="127.0.0.1").close()
        raise AssertionError("the system roots trusted the test certificate")
    except ssl.SSLCertVerificationError:
        ok("nginx wss", "the system's roots reject it (only the test CA trusts it)")

    h2c = env("BOTHAM_TEST_WS_H2C")
    h2_extended_connect(h2c)
    h1_upgrade_on_h2_server(h2c)
    h2_extended_connect(env("BOTHAM_TEST_WSS_H2"), ssl.create_default_context(cafile=ca), "hypercorn TLS h2")


def tuple_address(address):
    host, port = address.rsplit(":", 1)
    return host, int(port)


def spki_pin(der):
    """The base64 SHA-256 of the SubjectPublicKeyInfo inside a DER certificate (a minimal DER walk)."""

    def element(data, offset):
        length = data[offset + 1]
        header = 2
        if length & 0x80:
            count = length & 0x7F
            length = int.from_bytes(data[offset + 2:offset + 2 + count], "big")
            header += count
        return offset + header, offset + header + length  # content start, end

    certificate_content, _ = element(der, 0)
    tbs_content, tbs_end = element(der, certificate_content)
    offset = tbs_content
    fields = []
    while offset < tbs_end:
        start, end = element(der, offset)
        fields.append((offset, end))
        offset = end
    # tbsCertificate: [0] version (explicit, optional), serial, signature, issuer, validity, subject, spki, ...
    index = 6 if der[fields[0][0]] == 0xA0 else 5
    spki_offset, spki_end = fields[index]
    return base64.b64encode(hashlib.sha256(der[spki_offset:spki_end]).digest()).decode()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        sys.exit(f"FAILED: {error}")
