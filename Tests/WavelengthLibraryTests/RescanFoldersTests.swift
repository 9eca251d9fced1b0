import Testing
import WavelengthLibrary

@Suite struct RescanFoldersTests {
    let roots = ["/music", "/more"]

    @Test func aFolderDeletedWholeIsRescannedFromItsNearestFolderStillThere() {
        let there: Set<String> = ["/music", "/music/A"]
        let chosen = RescanFolders.choose(changed: ["/music/A/B/C", "/music/A/B"], roots: roots) { there.contains($0) }
        #expect(chosen == ["/music/A"])
    }

    @Test func foldersInsideAnotherOnTheListAreLeftToIt() {
        let chosen = RescanFolders.choose(changed: ["/music/A", "/music/A/B", "/music/AB", "/more/X"], roots: roots) { _ in true }
        #expect(chosen == ["/more/X", "/music/A", "/music/AB"])
    }

    @Test func nothingOutsideTheRootsIsScanned() {
        let chosen = RescanFolders.choose(changed: ["/etc", "/musicals/A", "/music"], roots: roots) { _ in true }
        #expect(chosen == ["/music"])
    }

    @Test func aMissingRootIsGivenAsItIsSoItsFilesAreKept() {
        // The scanner counts a root it can't list as unreachable and keeps
        // what the index holds under it (an unmounted disk).
        let chosen = RescanFolders.choose(changed: ["/music/A"], roots: roots) { _ in false }
        #expect(chosen == ["/music"])
    }
}
