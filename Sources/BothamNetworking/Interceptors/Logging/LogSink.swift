import Foundation

extension LoggingInterceptor {
    /// Where log lines go: a closure given each line and its level.
    ///
    /// ```swift
    /// // Forward to swift-log:
    /// let logger = Logger(label: "api")
    /// let sink = LoggingInterceptor.Sink { level, message in logger.log(level: Logger.Level(rawValue: level.rawValue) ?? .info, "\(message)") }
    /// ```
    ///
    /// Lines never contain CR or LF: every untrusted part is escaped.
    public struct Sink: Sendable {
        private let write: @Sendable (Level, String) -> Void

        /// A sink from a closure. It may be called from several tasks at once.
        public init(_ write: @escaping @Sendable (_ level: Level, _ message: String) -> Void) {
            self.write = write
        }

        /// Writes one line.
        package func callAsFunction(_ level: Level, _ message: String) {
            write(level, message)
        }

        /// Writes `[level] message` lines to standard error. The default.
        @usableFromInline
        package static let standardError = Sink { level, message in
            let line = "[BothamNetworking] [\(level.rawValue)] \(message)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
