import BothamNetworking
import Foundation
import Testing

/// What a parser produced from a whole stream: the events, and its state at the end.
private struct ParseOutcome: Equatable, CustomStringConvertible {
    var events: [ServerSentEvent]
    var lastEventID: String
    var reconnectionTime: Duration?

    var description: String {
        "events: \(events), lastEventID: \(lastEventID.debugDescription), retry: \(String(describing: reconnectionTime))"
    }
}

/// Feeds `pieces` to one parser, in order, and returns what it produced.
private func parse(_ pieces: [[UInt8]], lastEventID: String = "", maxLineBytes: Int = 1 << 20) throws(APIClientError)
    -> ParseOutcome
{
    var parser = ServerSentEvent.Parser(lastEventID: lastEventID, maxLineBytes: maxLineBytes)
    var events: [ServerSentEvent] = []
    for piece in pieces {
        events += try parser.feed(Data(piece))
    }
    return ParseOutcome(events: events, lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime)
}

/// Feeds `text` (UTF-8) in one piece.
private func parse(_ text: String, lastEventID: String = "") throws(APIClientError) -> ParseOutcome {
    try parse([Array(text.utf8)], lastEventID: lastEventID)
}

/// Feeds each string as a separate piece.
private func parse(pieces: [String]) throws(APIClientError) -> ParseOutcome {
    try parse(pieces.map { Array($0.utf8) })
}

private func message(_ data: String, id: String? = nil) -> ServerSentEvent {
    ServerSentEvent(type: "message", data: data, id: id)
}

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

@Suite("ServerSentEvent.Parser follows the WHATWG event stream interpretation", .timeLimit(.minutes(1)))
struct ServerSentEventParserTests {
    // MARK: The specification's examples

    @Test("Several data lines are joined with LF (the spec's stock-ticker example)")
    func multiLineData() throws {
        let outcome = try parse("data: YHOO\ndata: +2\ndata: 10\n\n")
        #expect(outcome.events == [message("YHOO\n+2\n10")])
    }

    @Test("The spec's example with a comment, an id and an id reset gives three events")
    func commentIDAndReset() throws {
        let stream = """
            : test stream

            data: first event
            id: 1

            data:second event
            id

            data:  third event


            """
        let outcome = try parse(stream)
        #expect(
            outcome.events == [
                message("first event", id: "1"), message("second event", id: nil), message(" third event", id: nil),
            ])
        #expect(outcome.lastEventID == "")
    }

    @Test("\"data\" lines with no colon give an empty and a LF event; the unfinished last one is dropped")
    func emptyDataExample() throws {
        let outcome = try parse("data\n\ndata\ndata\n\ndata:")
        #expect(outcome.events == [message(""), message("\n")])
    }

    @Test("\"data:test\" and \"data: test\" both give \"test\"")
    func spaceAfterColonIsOptional() throws {
        let outcome = try parse("data:test\n\ndata: test\n\n")
        #expect(outcome.events == [message("test"), message("test")])
    }

    @Test("The spec's event-type example gives add, remove, add")
    func eventTypes() throws {
        let outcome = try parse(
            "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n")
        #expect(
            outcome.events == [
                ServerSentEvent(type: "add", data: "73857293"),
                ServerSentEvent(type: "remove", data: "2153"),
                ServerSentEvent(type: "add", data: "113411"),
            ])
    }

    // MARK: Byte order mark

    @Test("A BOM at the very start is skipped")
    func leadingBOMSkipped() throws {
        let outcome = try parse([bom + Array("data: a\n\n".utf8)])
        #expect(outcome.events == [message("a")])
    }

    @Test("A BOM split across feeds is still skipped", arguments: [1, 2, 3])
    func splitBOMSkipped(firstPieceLength: Int) throws {
        let bytes = bom + Array("data: a\n\n".utf8)
        let outcome = try parse([Array(bytes[..<firstPieceLength]), Array(bytes[firstPieceLength...])])
        #expect(outcome.events == [message("a")])
    }

    @Test("A BOM fed one byte at a time, each in its own feed, is skipped")
    func bomByteByByte() throws {
        let bytes = bom + Array("data: a\n\n".utf8)
        let outcome = try parse(bytes.map { [$0] })
        #expect(outcome.events == [message("a")])
    }

    @Test("A BOM later in the stream is content: it makes the next field name unknown")
    func laterBOMIsContent() throws {
        let bytes = bom + Array("data: a\n\n".utf8) + bom + Array("data: b\n\n".utf8)
        let outcome = try parse([bytes])
        #expect(outcome.events == [message("a")])
    }

    @Test("Only one BOM is skipped: a second one at the start belongs to the first line")
    func onlyOneBOMSkipped() throws {
        let bytes = bom + bom + Array("data: a\n\ndata: b\n\n".utf8)
        let outcome = try parse([bytes])
        #expect(outcome.events == [message("b")])
    }

    @Test("A BOM inside a data value is kept")
    func bomInsideValueKept() throws {
        let outcome = try parse([Array("data: ".utf8) + bom + Array("x\n\n".utf8)])
        #expect(outcome.events == [message("\u{FEFF}x")])
    }

    // MARK: Line ends

    @Test("CR, LF and CRLF all end lines", arguments: ["\n", "\r", "\r\n"])
    func lineEnds(end: String) throws {
        let outcome = try parse("data: a\(end)data: b\(end)\(end)data: c\(end)\(end)")
        #expect(outcome.events == [message("a\nb"), message("c")])
    }

    @Test("Mixed line ends in one stream")
    func mixedLineEnds() throws {
        let outcome = try parse("data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r")
        #expect(outcome.events == [message("a\nb\nc"), message("d")])
    }

    @Test("A CRLF split across two feeds is one line end")
    func crlfSplitAcrossFeeds() throws {
        let outcome = try parse(pieces: ["data: a\r", "\ndata: b\r", "\n\r", "\n"])
        #expect(outcome.events == [message("a\nb")])
    }

    @Test("CR then CRLF is two line ends (a blank line)")
    func crThenCRLF() throws {
        let outcome = try parse(pieces: ["data: a\r", "\r\ndata: b\r\n\r\n"])
        #expect(outcome.events == [message("a"), message("b")])
    }

    @Test("An empty feed between the CR and the LF of a CRLF changes nothing")
    func emptyFeedInsideCRLF() throws {
        var parser = ServerSentEvent.Parser()
        var events: [ServerSentEvent] = []
        let storage: [UInt8] = Array("data: a\r\ndata: b\n\n".utf8)
        let crEnd = 8  // "data: a\r"
        try storage.withUnsafeBytes { all in
            try parser.feed(UnsafeRawBufferPointer(rebasing: all[..<crEnd])) { events.append($0) }
            // An empty buffer that still has an address, as a slice of a larger buffer has.
            try parser.feed(UnsafeRawBufferPointer(rebasing: all[crEnd..<crEnd])) { events.append($0) }
            try parser.feed(UnsafeRawBufferPointer(rebasing: all[crEnd...])) { events.append($0) }
        }
        #expect(events == [message("a\nb")])
    }

    @Test("Empty Data feeds anywhere change nothing, also between the CR and the LF of a CRLF")
    func emptyDataFeeds() throws {
        let outcome = try parse(pieces: ["", "data: a\r", "", "\ndata: b\r", "", "\n", "", "\n", ""])
        #expect(outcome.events == [message("a\nb")])
    }

    // MARK: event

    @Test("The event type defaults to \"message\"")
    func defaultType() throws {
        let outcome = try parse("data: x\n\n")
        #expect(outcome.events.map(\.type) == ["message"])
    }

    @Test("The event type is reset after each dispatch, and after a blank line with no data")
    func typeResetAfterDispatch() throws {
        let outcome = try parse("event: custom\ndata: a\n\ndata: b\n\nevent: lost\n\ndata: c\n\n")
        #expect(outcome.events == [ServerSentEvent(type: "custom", data: "a"), message("b"), message("c")])
    }

    @Test("The last event field wins; an empty one means \"message\"")
    func lastEventFieldWins() throws {
        let outcome = try parse("event: a\nevent: b\ndata: 1\n\nevent: a\nevent\ndata: 2\n\n")
        #expect(outcome.events == [ServerSentEvent(type: "b", data: "1"), message("2")])
    }

    // MARK: id

    @Test("An id persists across later events")
    func idPersists() throws {
        let outcome = try parse("id: 7\ndata: a\n\ndata: b\n\n")
        #expect(outcome.events == [message("a", id: "7"), message("b", id: "7")])
        #expect(outcome.lastEventID == "7")
    }

    @Test("An id containing NUL is ignored")
    func idWithNULIgnored() throws {
        let outcome = try parse("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n")
        #expect(outcome.events == [message("a", id: "1"), message("b", id: "1")])
        #expect(outcome.lastEventID == "1")
    }

    @Test("An empty id resets the last event ID", arguments: ["id:\n", "id\n", "id: \n"])
    func emptyIDResets(reset: String) throws {
        let outcome = try parse("id: 1\ndata: a\n\n\(reset)data: b\n\n")
        #expect(outcome.events == [message("a", id: "1"), message("b", id: nil)])
        #expect(outcome.lastEventID == "")
    }

    @Test("An id line not yet followed by a blank line does not change lastEventID")
    func idCommittedOnlyAtBlankLine() throws {
        var parser = ServerSentEvent.Parser()
        _ = try parser.feed(Data("id: 1\ndata: a\n\nid: 2\n".utf8))
        #expect(parser.lastEventID == "1")
        _ = try parser.feed(Data("data: partial".utf8))
        #expect(parser.lastEventID == "1")
        let events = try parser.feed(Data("\n\n".utf8))
        #expect(events == [message("partial", id: "2")])
        #expect(parser.lastEventID == "2")
    }

    @Test("A blank line commits the id even when no event is dispatched")
    func blankLineWithoutDataCommitsID() throws {
        var parser = ServerSentEvent.Parser()
        let events = try parser.feed(Data("id: 9\n\n".utf8))
        #expect(events.isEmpty)
        #expect(parser.lastEventID == "9")
    }

    @Test("An id of an event cut off by the end of the stream is not committed")
    func idOfIncompleteEventNotCommitted() throws {
        let outcome = try parse("id: 1\ndata: a\n\nid: 2\ndata: b")
        #expect(outcome.events == [message("a", id: "1")])
        #expect(outcome.lastEventID == "1")
    }

    @Test("The last event ID given at creation is the starting ID")
    func initialLastEventID() throws {
        let outcome = try parse("data: a\n\n", lastEventID: "41")
        #expect(outcome.events == [message("a", id: "41")])
        #expect(outcome.lastEventID == "41")
    }

    @Test("An id with a leading space keeps the rest, spaces included")
    func idValueKeepsInnerSpaces() throws {
        let outcome = try parse("id:  a b \ndata: x\n\n")
        #expect(outcome.events == [message("x", id: " a b ")])
    }

    // MARK: retry

    @Test("retry with digits sets the reconnection time in milliseconds")
    func retryDigits() throws {
        let outcome = try parse("retry: 1500\n")
        #expect(outcome.reconnectionTime == .milliseconds(1500))
        #expect(outcome.events.isEmpty)
    }

    @Test(
        "retry with anything but digits is ignored",
        arguments: [
            "retry: 15x0\n", "retry:\n", "retry\n", "retry: -5\n", "retry: 1.5\n", "retry:  1500\n", "retry: 15 \n",
        ]
    )
    func retryNonDigitsIgnored(line: String) throws {
        let outcome = try parse(line)
        #expect(outcome.reconnectionTime == nil)
    }

    @Test(
        "retry values past Int64 neither trap nor wrap: they mean the longest wait",
        arguments: ["retry: 9223372036854775808\n", "retry: 9223372036854775809\n", "retry: 99999999999999999999999\n"])
    func retryOverflow(line: String) throws {
        let outcome = try parse(line)
        let time = try #require(outcome.reconnectionTime)
        #expect(time > .seconds(1_000_000_000))
    }

    @Test("An ignored retry keeps the earlier reconnection time")
    func ignoredRetryKeepsEarlier() throws {
        let outcome = try parse("retry: 2000\nretry: 15x0\nretry:\n")
        #expect(outcome.reconnectionTime == .seconds(2))
    }

    @Test("retry: 0 is a valid reconnection time")
    func retryZero() throws {
        let outcome = try parse("retry: 0\n")
        #expect(outcome.reconnectionTime == .zero)
    }

    // MARK: Comments, unknown fields, values

    @Test("Comments and unknown fields are ignored")
    func commentsAndUnknownFields() throws {
        let outcome = try parse(
            ": ping\n:\nfoo: bar\nDATA: shouted\ndata : spaced\ndata: kept\n: another\n\n: ping\n\n")
        #expect(outcome.events == [message("kept")])
    }

    @Test("A stream of only comments dispatches nothing")
    func onlyComments() throws {
        let outcome = try parse(": ping\n\n: ping\n\n")
        #expect(outcome.events.isEmpty)
    }

    @Test("A field with no colon has an empty value")
    func fieldWithoutColon() throws {
        let outcome = try parse("data\ndata: x\n\n")
        #expect(outcome.events == [message("\nx")])
    }

    @Test("Only one leading space is removed; tabs and later colons are kept")
    func onlyOneLeadingSpaceRemoved() throws {
        let outcome = try parse("data:  two\n\ndata:\tx\n\ndata: a: b\n\ndata: trailing \n\n")
        #expect(outcome.events == [message(" two"), message("\tx"), message("a: b"), message("trailing ")])
    }

    @Test("An event not ended by a blank line at the end of the stream is not dispatched")
    func incompleteEventDropped() throws {
        let outcome = try parse("data: a\n\ndata: b\n")
        #expect(outcome.events == [message("a")])
    }

    @Test("Invalid UTF-8 becomes U+FFFD")
    func invalidUTF8() throws {
        let bytes = Array("data: a".utf8) + [0xFF] + Array("b".utf8) + [0xC3] + Array("\n\n".utf8)
        let outcome = try parse([bytes])
        #expect(outcome.events == [message("a\u{FFFD}b\u{FFFD}")])
    }

    @Test("Multi-byte UTF-8 split across feeds is decoded whole")
    func multiByteSplit() throws {
        let bytes = Array("data: 🌍\n\n".utf8)
        let outcome = try parse([Array(bytes[..<8]), Array(bytes[8...])])
        #expect(outcome.events == [message("🌍")])
    }

    @Test("A line longer than maxLineBytes fails with parsingError when it spans feeds")
    func tooLongLineAcrossFeeds() {
        let line = Array("data: 0123456789abcdefghij\n\n".utf8)
        #expect(
            isParsingError { () throws(APIClientError) in
                _ = try parse([Array(line[..<10]), Array(line[10...])], maxLineBytes: 16)
            })
    }

    @Test("A line longer than maxLineBytes fails with parsingError when it arrives in one feed")
    func tooLongLineInOneFeed() {
        let line = Array("data: 0123456789abcdefghij\n\n".utf8)
        #expect(
            isParsingError { () throws(APIClientError) in
                _ = try parse([line], maxLineBytes: 16)
            })
    }

    @Test("A line of exactly maxLineBytes is accepted")
    func lineAtLimitAccepted() throws {
        let outcome = try parse([Array("data: 0123456789".utf8), Array("\n\n".utf8)], maxLineBytes: 16)
        #expect(outcome.events == [message("0123456789")])
    }

    // MARK: Split invariance

    /// Several events, a BOM, CR / LF / CRLF line ends, comments, retry, id changes, multi-byte UTF-8 and an
    /// unfinished last event.
    static let richStream: [UInt8] =
        bom
        + Array(
            (": hello\r\n"
                + "id: 1\r\nevent: greet\r\ndata: héllo 🌍\r\n\r\n"
                + "data: line1\rdata: line2\r\r"
                + "retry: 2500\n"
                + "id: 2\ndata: {\"x\": \"ü\"}\n\n"
                + "event: ignored\n\n"
                + "id\r\ndata\r\n\r\n"
                + "id: ∂3\r\ndata:  ß\r\n\r\n"
                + "id: 4\ndata: cut off").utf8)

    private static let richExpected = ParseOutcome(
        events: [
            ServerSentEvent(type: "greet", data: "héllo 🌍", id: "1"),
            message("line1\nline2", id: "1"),
            message("{\"x\": \"ü\"}", id: "2"),
            message("", id: nil),
            message(" ß", id: "∂3"),
        ],
        lastEventID: "∂3",
        reconnectionTime: .milliseconds(2500))

    @Test("The rich stream fed whole gives the expected events and state")
    func richStreamWhole() throws {
        #expect(try parse([Self.richStream]) == Self.richExpected)
    }

    @Test("Splitting the stream in two at every byte offset gives the same result as feeding it whole")
    func splitInTwoAtEveryOffset() throws {
        let whole = try parse([Self.richStream])
        let bytes = Self.richStream
        for offset in 0...bytes.count {
            let outcome = try parse([Array(bytes[..<offset]), Array(bytes[offset...])])
            #expect(outcome == whole, "split at byte \(offset)")
        }
    }

    @Test("Splitting the stream in three at every pair of offsets gives the same result as feeding it whole")
    func splitInThreeAtEveryPairOfOffsets() throws {
        let whole = try parse([Self.richStream])
        let bytes = Self.richStream
        var mismatches: [String] = []
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let outcome = try parse([
                    Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...]),
                ])
                if outcome != whole { mismatches.append("\(first),\(second)") }
            }
        }
        #expect(mismatches.isEmpty, "differs when split at \(mismatches.prefix(10))")
    }

    @Test("Feeding the stream one byte at a time gives the same result as feeding it whole")
    func byteAtATime() throws {
        let whole = try parse([Self.richStream])
        let outcome = try parse(Self.richStream.map { [$0] })
        #expect(outcome == whole)
    }

    @Test("The events of one feed come back in order, and a later feed only returns the events it completes")
    func feedReturnsOnlyCompletedEvents() throws {
        var parser = ServerSentEvent.Parser()
        #expect(try parser.feed(Data("data: a\n\ndata: b\n\nda".utf8)) == [message("a"), message("b")])
        #expect(try parser.feed(Data("ta: c\n".utf8)).isEmpty)
        #expect(try parser.feed(Data("\n".utf8)) == [message("c")])
    }
}

/// Whether `body` throws ``APIClientError/parsingError(body:underlying:)``.
private func isParsingError(_ body: () throws(APIClientError) -> Void) -> Bool {
    do {
        try body()
        return false
    } catch {
        if case .parsingError = error { return true }
        return false
    }
}
