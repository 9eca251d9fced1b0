import NIOCore
import NIOEmbedded
import Testing
@testable import WavelengthServer

/// Telling a radio player's connection from every other by its request line.
@Suite("Stream request sniffer")
struct StreamRequestSnifferTests {
    @Test func aGetUnderStreamOrLiveIsAStreamRequest() {
        for line in [
            "GET /stream/107.3.mp3 HTTP/1.1\r\n", "GET /live/s1.mp3?edge=1 HTTP/1.1\r\n",
            "GET http://radio.local:8080/stream/s1.mp3 HTTP/1.0\r\n", "GET /stream/s1.m3u HTTP/1.1\r\n",
        ] {
            #expect(StreamRequestSniffer.isStreamRequest(Array(line.utf8)), "\(line)")
        }
        for line in [
            "HEAD /stream/s1.mp3 HTTP/1.1\r\n", "POST /stream/s1.mp3 HTTP/1.1\r\n", "GET /api/stations HTTP/1.1\r\n",
            "GET /streams/s1.mp3 HTTP/1.1\r\n", "GET / HTTP/1.1\r\n", "GET", "",
        ] {
            #expect(!StreamRequestSniffer.isStreamRequest(Array(line.utf8)), "\(line)")
        }
    }

    /// A request line that comes in pieces is held until it ends, then
    /// passed on whole, and the sniffer leaves the pipeline.
    @Test func aLineInPiecesIsHeldUntilItEndsThenPassedOn() async throws {
        let channel = NIOAsyncTestingChannel()
        let isStream = try await channel.testingEventLoop.executeInContext {
            NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        }
        try await channel.pipeline.addHandler(StreamRequestSniffer(isStream: isStream))
        try await channel.writeInbound(ByteBuffer(string: "GET /str"))
        #expect(try await channel.readInbound(as: ByteBuffer.self) == nil)
        try await channel.writeInbound(ByteBuffer(string: "eam/s1.mp3 HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try await channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "GET /stream/s1.mp3 HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try await channel.testingEventLoop.executeInContext { isStream.value })
        try await channel.writeInbound(ByteBuffer(string: "more"))
        #expect(try await channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "more"))
    }

    /// A line longer than any stream request is passed on at the limit,
    /// not held without end.
    @Test func aLongLineIsPassedOnAtTheLimit() async throws {
        let channel = NIOAsyncTestingChannel()
        let isStream = try await channel.testingEventLoop.executeInContext {
            NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        }
        try await channel.pipeline.addHandler(StreamRequestSniffer(isStream: isStream))
        let long = "GET /api/" + String(repeating: "a", count: StreamRequestSniffer.limit)
        try await channel.writeInbound(ByteBuffer(string: long))
        #expect(try await channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: long))
        #expect(try await channel.testingEventLoop.executeInContext { isStream.value } == false)
    }
}
