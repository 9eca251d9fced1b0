import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WavelengthQR

extension XMLElement {
    /// An attribute's value, looked up by name among all the attributes:
    /// swift-corelibs-foundation's attribute(forName:) finds nothing on an
    /// element in a default namespace, as every SVG element is.
    func attributeValue(_ name: String) -> String? {
        attributes?.first { $0.name == name }?.stringValue
    }
}

@Suite("QR code SVG")
struct SVGTests {
    static let invite = "https://example.com/#/i/abc"

    private func parse(_ svg: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: svg, options: [])
        return try #require(document.rootElement())
    }

    @Test("The SVG is well-formed XML with the right size, viewBox and attributes")
    func wellFormedAndSized() throws {
        let code = try QRCode(text: Self.invite)
        for moduleSize in [1, 8, 10] {
            let svg = try parse(code.svg(moduleSize: moduleSize))
            #expect(svg.name == "svg")
            #expect(svg.uri == "http://www.w3.org/2000/svg")
            let pixels = (code.size + 8) * moduleSize
            #expect(svg.attributeValue("width") == "\(pixels)")
            #expect(svg.attributeValue("height") == "\(pixels)")
            #expect(svg.attributeValue("viewBox") == "0 0 \(code.size + 8) \(code.size + 8)")
            #expect(svg.attributeValue("shape-rendering") == "crispEdges")
            #expect(svg.attributeValue("role") == "img")

            let children = (svg.children ?? []).compactMap { $0 as? XMLElement }
            #expect(children.map(\.name) == ["title", "rect", "path"])
            #expect(children[0].stringValue == "QR code")
            let background = children[1]
            #expect(background.attributeValue("fill") == "#fff")
            #expect(background.attributeValue("width") == "\(code.size + 8)")
            #expect(background.attributeValue("height") == "\(code.size + 8)")
        }
    }

    @Test("A module size below 1 counts as 1")
    func tinyModuleSize() throws {
        let code = try QRCode(text: Self.invite)
        let svg = try parse(code.svg(moduleSize: 0))
        #expect(svg.attributeValue("width") == "\(code.size + 8)")
    }

    @Test("A hostile title is escaped and reads back exactly")
    func hostileTitle() throws {
        let code = try QRCode(text: Self.invite)
        let hostile = "</title><script>alert('x')</script>&\"<![CDATA[ ]]>"
        let text = code.svg(title: hostile)
        #expect(!text.contains("<script>"))
        #expect(!text.contains("</title><"  + "script"))
        let svg = try parse(text)
        let title = try #require(svg.elements(forName: "title").first)
        #expect(title.stringValue == hostile)
        #expect(svg.elements(forName: "script").isEmpty)
    }

    @Test("Control characters XML forbids are dropped from the title, and the SVG still parses")
    func controlCharacters() throws {
        let code = try QRCode(text: Self.invite)
        let svg = try parse(code.svg(title: "Radio\u{0}\u{1B} night\tshow\u{FFFE} ラジオ 📻"))
        #expect(svg.elements(forName: "title").first?.stringValue == "Radio night\tshow ラジオ 📻")
    }

    @Test("The one path covers exactly the dark modules, a rectangle per run, inside the quiet zone")
    func pathMatchesModules() throws {
        for text in [Self.invite, String(repeating: "Wavelength ", count: 40)] {
            let code = try QRCode(text: text)
            let svg = try parse(code.svg())
            let paths = svg.elements(forName: "path")
            try #require(paths.count == 1)
            #expect(paths[0].attributeValue("fill") == "#000")
            let d = try #require(paths[0].attributeValue("d"))

            var dark = Set<[Int]>()
            var runsByRow: [Int: [(start: Int, end: Int)]] = [:]
            let segment = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/
            var covered = 0
            for match in d.matches(of: segment) {
                let (x, y, run, back) = (Int(match.1)!, Int(match.2)!, Int(match.3)!, Int(match.4)!)
                #expect(run == back && run >= 1)
                covered += match.0.count
                for column in x..<(x + run) { dark.insert([column - 4, y - 4]) }
                runsByRow[y, default: []].append((x, x + run))
            }
            // Nothing in d but those segments.
            #expect(covered == d.count)
            for y in 0..<code.size {
                for x in 0..<code.size {
                    #expect(code.isDark(x: x, y: y) == dark.contains([x, y]), "(\(x), \(y))")
                }
            }
            // Quiet zone: no dark module within 4 of the edge of the viewBox.
            #expect(dark.allSatisfy { $0.allSatisfy { (0..<code.size).contains($0) } })
            // Merged: runs in one row never touch each other.
            for runs in runsByRow.values {
                for (a, b) in zip(runs, runs.dropFirst()) { #expect(a.end < b.start) }
            }
        }
    }

    @Test("XMLParser reads the SVG without error too")
    func xmlParser() throws {
        let code = try QRCode(text: Self.invite)
        let parser = XMLParser(data: Data(code.svg(title: "a < b & c > \"d\" 'e'").utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }
}
