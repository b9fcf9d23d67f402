"""A cleartext HTTP/2 server (prior knowledge) built on Python's h2 package, for the faults a well-behaved server
never produces on demand (scripts/h2-servers.sh starts it; NativeHTTP2FaultTests use it):

  GET  /ok                       200 "ok"
  GET  /rst-mid-body             a head announcing 100000 octets, 1000 of them, then RST_STREAM INTERNAL_ERROR
  GET  /goaway-once/TOKEN        the first time a TOKEN is seen: GOAWAY whose last stream is below this one (so
                                 this request was never processed), then the connection closes; afterwards 200
                                 "after goaway"
  GET  /refuse-once/TOKEN        the first time: RST_STREAM REFUSED_STREAM; afterwards 200 "after refusal"
  GET  /refuse-always/TOKEN      RST_STREAM REFUSED_STREAM, every time (counted per TOKEN)
  GET  /count/TOKEN              how many requests /refuse-always/TOKEN has had, as text
  GET  /refuse-after-head/TOKEN  a head and 1000 of 100000 octets, then RST_STREAM REFUSED_STREAM (a refusal that
                                 comes too late to mean "unprocessed"); afterwards 200 "sent twice"
  POST /no-window                reads the body but never gives flow-control credit back: the client's window
                                 closes after 65535 octets and never opens again
  GET  /big-headers              a 200 whose head carries a 100000-octet field (over any sane header list limit)
  GET  /data-after-end           200 "done" with END_STREAM, then a DATA frame on the closed stream
  anything else                  404

Usage: python h2_faults.py PORT   (listens on 127.0.0.1:PORT until killed)
"""

import asyncio
import struct
import sys

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions

SEEN = set()
COUNTS = {}


def first_time(path):
    """Whether `path` is seen for the first time (remembering it)."""
    if path in SEEN:
        return False
    SEEN.add(path)
    return True


def frame_header(length, kind, flags, stream):
    """An HTTP/2 frame header (RFC 9113 §4.1)."""
    return struct.pack(">I", length)[1:] + bytes([kind, flags]) + struct.pack(">I", stream)


def hpack_length(value):
    """An HPACK string length with a 7-bit prefix and H = 0 (RFC 7541 §5.1)."""
    if value < 127:
        return bytes([value])
    out = [127]
    value -= 127
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


class Connection:
    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.closing = False
        self.paths = {}  # each stream's path, so that body() knows which uploads get no credit

    def flush(self):
        data = self.h2.data_to_send()
        if data:
            self.writer.write(data)

    async def run(self):
        self.h2.initiate_connection()
        self.flush()
        while not self.closing:
            data = await self.reader.read(65536)
            if not data:
                break
            try:
                events = self.h2.receive_data(data)
            except Exception:  # a protocol error from the client: drop the connection
                break
            for event in events:
                try:
                    if isinstance(event, h2.events.RequestReceived):
                        self.request(event.stream_id, dict(event.headers))
                    elif isinstance(event, h2.events.DataReceived):
                        self.body(event)
                except h2.exceptions.H2Error as error:
                    # The fault under test left a stream (or the connection) closed: later events on it are moot.
                    print(f"{type(error).__name__}: {error} after {event}", file=sys.stderr, flush=True)
                self.flush()
            await self.writer.drain()
        self.writer.close()

    def respond(self, stream, status, body, headers=()):
        fields = [(":status", str(status)), ("content-length", str(len(body)))] + list(headers)
        self.h2.send_headers(stream, fields, end_stream=not body)
        if body:
            self.h2.send_data(stream, body, end_stream=True)

    def request(self, stream, headers):
        path = headers.get(":path", "")
        self.paths[stream] = path
        if path == "/ok":
            self.respond(stream, 200, b"ok")
        elif path == "/rst-mid-body":
            self.h2.send_headers(stream, [(":status", "200"), ("content-length", "100000")])
            self.h2.send_data(stream, b"x" * 1000)
            self.h2.reset_stream(stream, h2.errors.ErrorCodes.INTERNAL_ERROR)
        elif path.startswith("/goaway-once/"):
            if first_time(path):
                self.h2.close_connection(last_stream_id=max(0, stream - 2))
                self.closing = True
            else:
                self.respond(stream, 200, b"after goaway")
        elif path.startswith("/refuse-once/"):
            if first_time(path):
                self.h2.reset_stream(stream, h2.errors.ErrorCodes.REFUSED_STREAM)
            else:
                self.respond(stream, 200, b"after refusal")
        elif path.startswith("/refuse-always/"):
            COUNTS[path] = COUNTS.get(path, 0) + 1
            self.h2.reset_stream(stream, h2.errors.ErrorCodes.REFUSED_STREAM)
        elif path.startswith("/count/"):
            self.respond(stream, 200, str(COUNTS.get("/refuse-always/" + path[7:], 0)).encode())
        elif path.startswith("/refuse-after-head/"):
            if not first_time(path):
                self.respond(stream, 200, b"sent twice")
            else:
                self.h2.send_headers(stream, [(":status", "200"), ("content-length", "100000")])
                self.h2.send_data(stream, b"x" * 1000)
                self.h2.reset_stream(stream, h2.errors.ErrorCodes.REFUSED_STREAM)
        elif path == "/no-window":
            pass  # the body is read in body(), never acknowledged; no answer
        elif path == "/big-headers":
            # Encoded by hand (pure-Python Huffman coding of 100 KB would stall every other connection): ":status:
            # 200" indexed, then "x-big" as a literal without indexing and without Huffman, in HEADERS and
            # CONTINUATION frames of 16384 octets.
            value = b"b" * 100000
            block = bytes([0x88, 0x00, 5]) + b"x-big" + hpack_length(len(value)) + value
            pieces = [block[i:i + 16384] for i in range(0, len(block), 16384)]
            for index, piece in enumerate(pieces):
                kind = 1 if index == 0 else 9  # HEADERS, then CONTINUATION
                flags = (0x4 if index == len(pieces) - 1 else 0) | (0x1 if index == 0 else 0)
                self.writer.write(frame_header(len(piece), kind, flags, stream) + piece)
        elif path == "/data-after-end":
            self.respond(stream, 200, b"done")
            self.flush()
            # A DATA frame (type 0, no flags) on the stream that just ended: h2 itself would refuse to send it.
            payload = b"late"
            self.writer.write(frame_header(len(payload), 0, 0, stream) + payload)
        else:
            self.respond(stream, 404, b"not found")

    def body(self, event):
        if self.paths.get(event.stream_id) == "/no-window" or self.closing:
            return  # no credit back (or the connection is going away)
        self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)


async def serve(reader, writer):
    await Connection(reader, writer).run()


async def main(port):
    server = await asyncio.start_server(serve, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
