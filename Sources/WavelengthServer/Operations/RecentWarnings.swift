import Foundation
import Logging
import Synchronization

/// The server's last warnings and errors, kept in memory for the control
/// room ("recent warnings from the log"): a handler beside the log's own
/// receives every message at `.warning` and above.
public final class RecentWarnings: Sendable {
    public struct Line: Sendable, Equatable {
        public var at: Date
        public var level: Logger.Level
        public var message: String
    }

    /// The lines kept, and the longest message kept whole.
    static let kept = 50
    static let messageBytes = 500

    private let lines = Mutex<[Line]>([])

    public init() {}

    /// Newest first.
    public var recent: [Line] { lines.withLock { $0.reversed() } }

    func record(_ level: Logger.Level, _ message: String) {
        let text = message.utf8.count > Self.messageBytes ? String(message.prefix(Self.messageBytes)) + "…" : message
        lines.withLock { lines in
            lines.append(Line(at: Date(), level: level, message: text))
            if lines.count > Self.kept { lines.removeFirst(lines.count - Self.kept) }
        }
    }

    /// `logger`, also writing its warnings here.
    public func watching(_ logger: Logger) -> Logger {
        var watched = logger
        watched.handler = MultiplexLogHandler([logger.handler, Handler(sink: self)])
        return watched
    }

    private struct Handler: LogHandler {
        let sink: RecentWarnings
        var logLevel: Logger.Level = .warning
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            sink.record(event.level, event.message.description)
        }
    }
}
