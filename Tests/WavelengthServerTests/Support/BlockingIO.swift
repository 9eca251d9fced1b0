import NIOPosix

/// Where the test clients' blocking socket calls run: threads of their own.
/// NIO's shared pool has one thread per core (two here) and also runs the
/// servers' bcrypt; a test client waiting seconds on it for a close frame
/// kept every test server's signups and logins waiting too (the stall watch
/// saw that pool answer 4.5 s late in a full run). Threads enough that the
/// test clients that hold one while they wait (a stream player's first
/// byte, a close frame) never keep another test's call from starting: with
/// eight, a full run under load once left a close frame unread for the
/// test's whole 300 s.
enum BlockingIO {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 32)
        pool.start()
        return pool
    }()
}
