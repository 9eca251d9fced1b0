import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WavelengthCore

@testable import WavelengthServer

/// A station's feed names who its listeners are, so only the cluster's own
/// nodes may open one: each proves itself with an HMAC of its id, the
/// station and the minute, under a key only nodes sharing the signing keys
/// hold.
@Suite("Who may open a station's feed")
struct NodeProofTests {
    let proof = NodeProof(secret: Data(repeating: 7, count: 32))
    let now: Int64 = 1_800_000_000_000

    @Test func aProofHoldsForItsNodeStationAndMinutesOnly() {
        let made = proof.make(node: "b", station: "s1", now: now)
        #expect(proof.accepts(made, node: "b", station: "s1", now: now))
        // Clocks a minute apart still agree.
        #expect(proof.accepts(made, node: "b", station: "s1", now: now + 60_000))
        #expect(proof.accepts(made, node: "b", station: "s1", now: now - 60_000))
        // Another node, another station, or a proof kept for later: no.
        #expect(!proof.accepts(made, node: "c", station: "s1", now: now))
        #expect(!proof.accepts(made, node: "b", station: "s2", now: now))
        #expect(!proof.accepts(made, node: "b", station: "s1", now: now + 5 * 60_000))
        // Another cluster's key, or no proof at all.
        let other = NodeProof(secret: Data(repeating: 8, count: 32))
        #expect(!other.accepts(made, node: "b", station: "s1", now: now))
        for junk in ["", "zz", String(repeating: "0", count: 64), String(repeating: "g", count: 64), made + "00"] {
            #expect(!proof.accepts(junk, node: "b", station: "s1", now: now))
        }
    }

    /// On one node nobody may open a feed; nobody without the proof on a
    /// cluster's either (see `RelayTests` for the nodes' own).
    @Test func aFeedAsksForTheClustersProof() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let headers: HTTPFields = [
                .upgrade: "websocket", .connection: "Upgrade", .wavelengthNode: "b",
                .wavelengthNodeProof: String(repeating: "0", count: 64),
            ]
            let refused = try await client.execute(
                uri: "/cluster/stations/\(owner.stationID)/feed", method: .get, headers: headers)
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains("forbidden"))
        }
    }
}
