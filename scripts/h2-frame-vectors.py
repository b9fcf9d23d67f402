#!/usr/bin/env python3
"""Writes Tests/BothamNetworkingNativeTests/HTTP2/Framing/HTTP2FramePythonVectors.swift: HTTP/2 frames written by
an independent implementation (the `hyperframe` package from PyPI, python-hyper's frame library), with what each
one carries, for HTTP2FramePythonVectorTests to decode and re-encode. Only needed to regenerate the file; the
tests never run Python.

    python3 -m venv /tmp/hyperframe-venv && /tmp/hyperframe-venv/bin/pip install hyperframe
    /tmp/hyperframe-venv/bin/python scripts/h2-frame-vectors.py

Every vector is a run of frames on one connection: `wire` is each frame as hyperframe wrote it (our encoder must
write the same octets), `decoded` what our decoder must deliver (a field block split over CONTINUATION frames
arrives whole in its HEADERS or PUSH_PROMISE). Types hyperframe knows and RFC 9113 does not (ALTSVC, 0xa) and
extension frames are unknown frames to us.
"""
import os
import random
import shutil
import subprocess

from hyperframe import frame as hf

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "BothamNetworkingNativeTests", "HTTP2", "Framing",
                   "HTTP2FramePythonVectors.swift")

SETTINGS_VALUES = {
    0x1: lambda rng: rng.choice([0, 4096, 65536, 2 ** 32 - 1]),
    0x2: lambda rng: 0,  # a server's ENABLE_PUSH of 1 is a PROTOCOL_ERROR for a client
    0x3: lambda rng: rng.choice([0, 100, 2 ** 31]),
    0x4: lambda rng: rng.choice([0, 65535, 2 ** 31 - 1]),
    0x5: lambda rng: rng.choice([2 ** 14, 2 ** 20, 2 ** 24 - 1]),
    0x6: lambda rng: rng.choice([0, 8192, 2 ** 32 - 1]),
    0x8: lambda rng: 1,  # SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441): unknown to us
    0x9: lambda rng: rng.randrange(2 ** 32),  # SETTINGS_NO_RFC7540_PRIORITIES (RFC 9218): unknown to us
    0xF0: lambda rng: rng.randrange(2 ** 32),  # hyperframe writes only an identifier's low 8 bits
}


def blob(rng, most=48):
    return bytes(rng.randrange(256) for _ in range(rng.randrange(0, most + 1)))


def stream(rng):
    return rng.choice([1, 3, 5, 0x7FFFFFFF, rng.randrange(1, 2 ** 31)])


def pad(rng, frame):
    if rng.random() < 0.4:
        frame.flags.add("PADDED")
        frame.pad_length = rng.choice([0, 1, rng.randrange(256)])


def priority(rng, frame, stream_id):
    frame.depends_on = rng.choice([0, stream_id + 2 if stream_id < 2 ** 31 - 3 else 1])
    frame.stream_weight = rng.randrange(256)
    frame.exclusive = rng.random() < 0.5


def single(rng, kind):
    if kind == "data":
        f = hf.DataFrame(stream(rng), data=blob(rng))
        if rng.random() < 0.5:
            f.flags.add("END_STREAM")
        pad(rng, f)
    elif kind == "headers":
        sid = stream(rng)
        f = hf.HeadersFrame(sid, data=blob(rng))
        f.flags.add("END_HEADERS")
        if rng.random() < 0.5:
            f.flags.add("END_STREAM")
        if rng.random() < 0.5:
            f.flags.add("PRIORITY")
            priority(rng, f, sid)
        pad(rng, f)
    elif kind == "priority":
        sid = stream(rng)
        f = hf.PriorityFrame(sid)
        priority(rng, f, sid)
    elif kind == "rst":
        f = hf.RstStreamFrame(stream(rng), error_code=rng.choice([0, 1, 7, 8, 0xD, 0xE, 2 ** 32 - 1]))
    elif kind == "settings":
        if rng.random() < 0.25:
            f = hf.SettingsFrame(0, flags=["ACK"])
        else:
            ids = rng.sample(sorted(SETTINGS_VALUES), rng.randrange(0, len(SETTINGS_VALUES) + 1))
            f = hf.SettingsFrame(0, settings={i: SETTINGS_VALUES[i](rng) for i in ids})
    elif kind == "push":
        f = hf.PushPromiseFrame(stream(rng), promised_stream_id=rng.randrange(1, 2 ** 30) * 2, data=blob(rng))
        f.flags.add("END_HEADERS")
        pad(rng, f)
    elif kind == "ping":
        f = hf.PingFrame(0, opaque_data=bytes(rng.randrange(256) for _ in range(8)))
        if rng.random() < 0.5:
            f.flags.add("ACK")
    elif kind == "goaway":
        f = hf.GoAwayFrame(0, last_stream_id=rng.choice([0, 1, 2 ** 31 - 1, rng.randrange(2 ** 31)]),
                           error_code=rng.choice([0, 1, 2, 0xB, 0xFF]), additional_data=blob(rng, 24))
    elif kind == "window":
        f = hf.WindowUpdateFrame(rng.choice([0, stream(rng)]),
                                 window_increment=rng.choice([1, 65535, 2 ** 31 - 1, rng.randrange(1, 2 ** 31)]))
    elif kind == "altsvc":
        f = hf.AltSvcFrame(0, origin=b"example.com", field=b'h2=":8443"; ma=60')
    else:
        body = blob(rng)
        f = hf.ExtensionFrame(type=rng.choice([0xB, 0x10, 0x7F, 0xFF]), stream_id=rng.choice([0, stream(rng)]),
                              flag_byte=rng.randrange(256), body=body)
        f.body_len = len(body)
    return f


def field_block_run(rng, push):
    """A HEADERS (or PUSH_PROMISE) without END_HEADERS and 1–4 CONTINUATIONs, the last one ending the block."""
    sid = stream(rng)
    if push:
        first = hf.PushPromiseFrame(sid, promised_stream_id=rng.randrange(1, 2 ** 30) * 2, data=blob(rng))
    else:
        first = hf.HeadersFrame(sid, data=blob(rng))
        if rng.random() < 0.5:
            first.flags.add("END_STREAM")
        if rng.random() < 0.3:
            first.flags.add("PRIORITY")
            priority(rng, first, sid)
    pad(rng, first)
    frames = [first]
    count = rng.randrange(1, 5)
    for index in range(count):
        c = hf.ContinuationFrame(sid, data=blob(rng, 32))
        if index == count - 1:
            c.flags.add("END_HEADERS")
        frames.append(c)
    return frames


def swift_hex(data):
    """A blob as `h("…")`, or as a multi-line literal of 64 hex digits a line when long (swift format then
    lays the frame out within the line length)."""
    text = data.hex()
    if len(text) <= 40:
        return 'h("%s")' % text
    rows = "\n".join(text[i:i + 64] for i in range(0, len(text), 64))
    return 'h(\n"""\n%s\n""")' % rows


def swift_padding(f):
    return ", padding: %d" % f.pad_length if "PADDED" in f.flags else ""


def swift_priority(f):
    return "HTTP2Priority(exclusive: %s, dependency: %d, weight: %d)" % (
        "true" if f.exclusive else "false", f.depends_on, f.stream_weight)


def swift_bool(value):
    return "true" if value else "false"


def swift_payload(f, block=None):
    """The Swift payload expression; `block` replaces the fragment of a HEADERS or PUSH_PROMISE (joined)."""
    if isinstance(f, hf.DataFrame):
        return ".data(.init(bytes: %s, endStream: %s%s))" % (
            swift_hex(f.data), swift_bool("END_STREAM" in f.flags), swift_padding(f))
    if isinstance(f, hf.HeadersFrame):
        end_headers = block is not None or "END_HEADERS" in f.flags
        prio = ", priority: %s" % swift_priority(f) if "PRIORITY" in f.flags else ""
        return ".headers(.init(fieldBlock: %s, endStream: %s, endHeaders: %s%s%s))" % (
            swift_hex(f.data if block is None else block), swift_bool("END_STREAM" in f.flags),
            swift_bool(end_headers), prio, swift_padding(f))
    if isinstance(f, hf.PriorityFrame):
        return ".priority(%s)" % swift_priority(f)
    if isinstance(f, hf.RstStreamFrame):
        return ".rstStream(HTTP2ErrorCode(rawValue: %d))" % f.error_code
    if isinstance(f, hf.SettingsFrame):
        if "ACK" in f.flags:
            return ".settings(.ack)"
        items = ", ".join("HTTP2Setting(HTTP2SettingsParameter(rawValue: %d), %d)" % (k, v)
                          for k, v in f.settings.items())
        return ".settings(.parameters([%s]))" % items
    if isinstance(f, hf.PushPromiseFrame):
        end_headers = block is not None or "END_HEADERS" in f.flags
        return ".pushPromise(.init(promisedStreamID: %d, fieldBlock: %s, endHeaders: %s%s))" % (
            f.promised_stream_id, swift_hex(f.data if block is None else block), swift_bool(end_headers),
            swift_padding(f))
    if isinstance(f, hf.PingFrame):
        return ".ping(.init(opaqueData: 0x%s, ack: %s))" % (f.opaque_data.hex(), swift_bool("ACK" in f.flags))
    if isinstance(f, hf.GoAwayFrame):
        return ".goAway(.init(lastStreamID: %d, errorCode: HTTP2ErrorCode(rawValue: %d), debugData: %s))" % (
            f.last_stream_id, f.error_code, swift_hex(f.additional_data))
    if isinstance(f, hf.WindowUpdateFrame):
        return ".windowUpdate(windowIncrement: %d)" % f.window_increment
    if isinstance(f, hf.ContinuationFrame):
        return ".continuation(.init(fieldBlockFragment: %s, endHeaders: %s))" % (
            swift_hex(f.data), swift_bool("END_HEADERS" in f.flags))
    if isinstance(f, hf.AltSvcFrame):
        body = f.serialize_body()
        return ".unknown(.init(type: HTTP2FrameType(rawValue: 0x%x), flags: 0, bytes: %s))" % (f.type, swift_hex(body))
    return ".unknown(.init(type: HTTP2FrameType(rawValue: 0x%x), flags: 0x%x, bytes: %s))" % (
        f.type, f.flag_byte, swift_hex(f.body))


def swift_frame(f, block=None):
    return "HTTP2Frame(streamID: %d, payload: %s)" % (f.stream_id, swift_payload(f, block))


def reparse(data):
    """hyperframe's own parse of the octets: the frames it reads back, to check it agrees with itself."""
    view = memoryview(data)
    frames = []
    while view:
        frame, length = hf.Frame.parse_frame_header(view[:9])
        frame.parse_body(view[9:9 + length])
        frames.append(frame)
        view = view[9 + length:]
    return frames


def vector(name, frames):
    """(name, octets, wire frames as Swift, decoded frames as Swift)."""
    data = b"".join(f.serialize() for f in frames)
    again = reparse(data)
    assert [type(f) for f in again] == [type(f) for f in frames], name
    assert b"".join(f.serialize() for f in again) == data, name
    wire = [swift_frame(f) for f in frames]
    decoded = []
    index = 0
    while index < len(frames):
        f = frames[index]
        if isinstance(f, (hf.HeadersFrame, hf.PushPromiseFrame)) and "END_HEADERS" not in f.flags:
            block = f.data
            index += 1
            while True:
                block += frames[index].data
                if "END_HEADERS" in frames[index].flags:
                    break
                index += 1
            decoded.append(swift_frame(f, block))
        else:
            decoded.append(swift_frame(f))
        index += 1
    return name, data, wire, decoded


KINDS = ["data", "headers", "priority", "rst", "settings", "push", "ping", "goaway", "window", "altsvc",
         "extension"]


def main():
    rng = random.Random(9113)
    vectors = []
    for kind in KINDS:
        for number in range(6):
            vectors.append(vector("%s %d" % (kind, number), [single(rng, kind)]))
    for number in range(6):
        vectors.append(vector("field block %d" % number, field_block_run(rng, push=False)))
    for number in range(3):
        vectors.append(vector("promised field block %d" % number, field_block_run(rng, push=True)))
    for number in range(6):
        frames = []
        for _ in range(rng.randrange(3, 9)):
            if rng.random() < 0.2:
                frames += field_block_run(rng, push=False)
            else:
                frames.append(single(rng, rng.choice(KINDS)))
        vectors.append(vector("connection %d" % number, frames))

    lines = [
        "// Generated by scripts/h2-frame-vectors.py from the `hyperframe` package (PyPI); do not edit.",
        "",
        "@testable import BothamNetworkingNative",
        "",
        "/// Frames written by an independent HTTP/2 frame library, one run of frames per connection: `hex` the",
        "/// octets, `wire` each frame as written (CONTINUATION included), `decoded` what our decoder delivers.",
        "enum HTTP2FramePythonVectors {",
        "    struct Vector: Sendable {",
        "        var name: String",
        "        var hex: String",
        "        var wire: [HTTP2Frame]",
        "        var decoded: [HTTP2Frame]",
        "    }",
        "",
        "    private static func h(_ hex: String) -> [UInt8] { HPACKTestSupport.bytes(hex) }",
        "",
        "    static let vectors: [Vector] = [",
    ]
    for name, data, wire, decoded in vectors:
        lines.append("        Vector(")
        lines.append('            name: "%s",' % name)
        text = data.hex()
        if len(text) <= 80:
            lines.append('            hex: "%s",' % text)
        else:
            lines.append('            hex: """')
            lines.extend("                %s" % text[i:i + 96] for i in range(0, len(text), 96))
            lines.append('                """,')
        for label, frames in (("wire", wire), ("decoded", decoded)):
            lines.append("            %s: [" % label)
            lines.extend("                %s," % f for f in frames)
            lines.append("            ]%s" % ("," if label == "wire" else ""))
        lines.append("        ),")
    lines.append("    ]")
    lines.append("}")
    with open(OUT, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    # The frames are written one a line; swift format breaks them within the repository's line length.
    if shutil.which("swift"):
        subprocess.run(["swift", "format", "-i", OUT], check=True)
    print("%d vectors, %d frames" % (len(vectors), sum(len(w) for _, _, w, _ in vectors)))


if __name__ == "__main__":
    main()
