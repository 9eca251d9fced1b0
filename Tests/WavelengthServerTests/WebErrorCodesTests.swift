import Foundation
import Testing
import WavelengthWire

/// The web app compares the server's error codes through one module,
/// `web/js/api/error-codes.js`, which must be `ErrorCode` to the letter: a
/// code added, renamed or dropped on one side only would leave the app
/// switching over a code the server never sends.
@Suite("The web app's error codes")
struct WebErrorCodesTests {
    @Test func theWebAppsListIsTheEnumsEveryCaseInOrder() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web/js/api/error-codes.js")
        let source = try String(contentsOf: file, encoding: .utf8)
        let line = /^\s+(\w+): "([a-z0-9_]+)",$/
        let listed = source.split(separator: "\n").compactMap { text -> [String]? in
            guard let match = try? line.wholeMatch(in: String(text)) else { return nil }
            return [String(match.1), String(match.2)]
        }
        let cases = ErrorCode.allCases.map { [String(describing: $0), $0.rawValue] }
        // Said briefly: what differs, not the two lists of a hundred codes.
        let differing = (0..<max(listed.count, cases.count)).compactMap { i -> String? in
            let web = i < listed.count ? listed[i].joined(separator: ": ") : "nothing"
            let swift = i < cases.count ? cases[i].joined(separator: ": ") : "nothing"
            return web == swift ? nil : "line \(i + 1): web has \(web), the enum \(swift)"
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }
}
