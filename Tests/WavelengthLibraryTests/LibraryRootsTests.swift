import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("Library roots")
struct LibraryRootsTests {
    @Test func onlyRealPathsInsideARootAreConfined() throws {
        let base = NSTemporaryDirectory() + "wavelength-roots-\(UUID().uuidString)"
        let files = FileManager.default
        try files.createDirectory(atPath: base + "/lib/a", withIntermediateDirectories: true)
        try files.createDirectory(atPath: base + "/library2", withIntermediateDirectories: true)
        defer { try? files.removeItem(atPath: base) }
        for path in ["/lib/a/song.mp3", "/library2/other.mp3"] {
            #expect(files.createFile(atPath: base + path, contents: Data([1])))
        }
        try files.createSymbolicLink(atPath: base + "/lib/a/inside.mp3", withDestinationPath: "song.mp3")
        try files.createSymbolicLink(atPath: base + "/lib/a/out.mp3", withDestinationPath: base + "/library2/other.mp3")
        try files.createSymbolicLink(atPath: base + "/lib/linked", withDestinationPath: base + "/library2")
        // A root given through a link is known by its real path.
        try files.createSymbolicLink(atPath: base + "/via", withDestinationPath: base + "/lib")

        let roots = LibraryRoots([base + "/via", base + "/missing"])
        let real = LibraryRoots.realPath(base + "/lib")!
        #expect(roots.realRoots == [real])
        #expect(roots.confine(base + "/lib/a/song.mp3") == real + "/a/song.mp3")
        #expect(roots.confine(base + "/lib/a/inside.mp3") == real + "/a/song.mp3")
        #expect(roots.confine(base + "/lib/a/../a/song.mp3") == real + "/a/song.mp3")
        // A sibling whose name starts with the root's is outside it.
        #expect(roots.confine(base + "/library2/other.mp3") == nil)
        #expect(roots.confine(base + "/lib/a/out.mp3") == nil)
        #expect(roots.confine(base + "/lib/linked/other.mp3") == nil)
        #expect(roots.confine(base + "/lib/a/gone.mp3") == nil)
        #expect(roots.confine("") == nil)
    }
}
