import Foundation

extension ServerSentEvent {
    /// The event stream interpretation of WHATWG HTML §9.2.6, fed with bytes in any chunking.
    ///
    /// - A UTF-8 byte order mark at the very start is skipped; lines are decoded as UTF-8 with replacement characters.
    /// - Lines end with CR, LF or CRLF (a CRLF split across chunks is one line end).
    /// - `event` sets the type, `data` appends its value and an LF, `id` sets the last event ID unless the value
    ///   contains NUL, `retry` sets the reconnection time when the value is ASCII digits only; lines starting with `:`
    ///   are comments, other fields are ignored; one space after the colon is removed.
    /// - A blank line commits the last event ID and dispatches the event (none when the data buffer is empty); the
    ///   data's last LF is removed.
    /// - At the end of the stream an event that was not ended by a blank line is discarded.
    package struct Parser: Sendable {
        private var splitter: LineSplitter
        private var startOfStream = true
        private var bomBytesSeen = 0
        private var data: [UInt8] = []
        private var hasData = false
        private var eventType: [UInt8] = []
        /// The last event ID buffer: set by `id:` fields, committed to ``lastEventID`` when an event is dispatched.
        private var idBuffer: [UInt8]
        private var lastEventIDBytes: [UInt8]
        /// The last event ID string: the `id:` in force at the last blank line (persists across events and, in
        /// ``EventSource``, across connections; what `Last-Event-ID` carries on a reconnection).
        package var lastEventID: String { String(decoding: lastEventIDBytes, as: UTF8.self) }
        /// The reconnection time the stream asked for with `retry:`, if any.
        package private(set) var reconnectionTime: Duration?

        /// Creates a parser.
        ///
        /// - Parameters:
        ///   - lastEventID: The last event ID to start with (from an earlier connection).
        ///   - maxLineBytes: The longest line accepted (1 MiB); longer fails with
        ///     ``APIClientError/parsingError(body:underlying:)``.
        package init(lastEventID: String = "", maxLineBytes: Int = 1 << 20) {
            splitter = LineSplitter(maxLineBytes: max(1, maxLineBytes))
            lastEventIDBytes = Array(lastEventID.utf8)
            idBuffer = lastEventIDBytes
        }

        /// Parses `bytes` and returns the events they complete, in order.
        ///
        /// When it throws (a line longer than the limit), the events completed earlier in `bytes` are not returned; use
        /// ``feed(_:dispatch:)`` to receive every event before the error.
        package mutating func feed(_ bytes: Data) throws(APIClientError) -> [ServerSentEvent] {
            var events: [ServerSentEvent] = []
            try bytes.withBytes { (raw) throws(APIClientError) in
                try feed(raw) { events.append($0) }
            }
            return events
        }

        /// Parses `bytes`, calling `dispatch` with each event they complete.
        package mutating func feed(
            _ bytes: UnsafeRawBufferPointer, dispatch: (ServerSentEvent) -> Void
        ) throws(APIClientError) {
            var bytes = bytes
            if startOfStream {
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                while bomBytesSeen < 3, let first = bytes.first {
                    guard first == bom[bomBytesSeen] else {
                        // Not a BOM after all: the bytes seen so far are content.
                        startOfStream = false
                        let seen = bom.prefix(bomBytesSeen)
                        bomBytesSeen = 0
                        if !seen.isEmpty {
                            try Data(seen).withBytes { (prefix) throws(APIClientError) in
                                try feedLines(prefix, dispatch)
                            }
                        }
                        break
                    }
                    bomBytesSeen += 1
                    bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
                }
                if bomBytesSeen == 3 { startOfStream = false }
                if startOfStream && bytes.isEmpty { return }
            }
            try feedLines(bytes, dispatch)
        }

        private mutating func feedLines(
            _ bytes: UnsafeRawBufferPointer, _ dispatch: (ServerSentEvent) -> Void
        ) throws(APIClientError) {
            var splitter = self.splitter
            defer { self.splitter = splitter }
            try splitter.feed(bytes) { line in process(line, dispatch) }
        }

        private mutating func process(_ line: UnsafeBufferPointer<UInt8>, _ dispatch: (ServerSentEvent) -> Void) {
            guard let first = line.first else {
                lastEventIDBytes = idBuffer
                dispatchEvent(dispatch)
                return
            }
            if first == 0x3A { return }  // ":" comment
            let colon = line.firstIndex(of: 0x3A)
            let name = UnsafeBufferPointer(rebasing: line[..<(colon ?? line.count)])
            var valueStart = colon.map { $0 + 1 } ?? line.count
            if valueStart < line.count && line[valueStart] == 0x20 { valueStart += 1 }
            let value = UnsafeBufferPointer(rebasing: line[valueStart...])
            switch name.count {
            case 4 where name.elementsEqual("data".utf8):
                data.append(contentsOf: value)
                data.append(0x0A)
                hasData = true
            case 5 where name.elementsEqual("event".utf8):
                eventType = Array(value)
            case 2 where name.elementsEqual("id".utf8):
                if !value.contains(0) { idBuffer = Array(value) }
            case 5 where name.elementsEqual("retry".utf8):
                guard !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return }
                var milliseconds: Int64 = 0
                for digit in value {
                    let (times, timesOverflow) = milliseconds.multipliedReportingOverflow(by: 10)
                    let (sum, sumOverflow) = times.addingReportingOverflow(Int64(digit - 0x30))
                    guard !timesOverflow, !sumOverflow else {
                        // Absurdly long: the longest wait there is (EventSource.Policy caps it anyway).
                        milliseconds = Int64.max
                        break
                    }
                    milliseconds = sum
                }
                reconnectionTime = .milliseconds(min(milliseconds, Int64.max / 1_000_000))
            default:
                return
            }
        }

        private mutating func dispatchEvent(_ dispatch: (ServerSentEvent) -> Void) {
            defer {
                data.removeAll(keepingCapacity: true)
                eventType.removeAll(keepingCapacity: true)
                hasData = false
            }
            guard hasData else { return }
            data.removeLast()
            let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
            let id = lastEventIDBytes.isEmpty ? nil : String(decoding: lastEventIDBytes, as: UTF8.self)
            dispatch(ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self), id: id))
        }
    }
}
