import NIOPosix

/// Where the test clients' blocking socket calls run: threads of their own.
/// NIO's shared pool has one thread per core (two here) and also runs the
/// servers' bcrypt; a test client waiting seconds on it for a close frame
/// kept every test server's signups and logins waiting too (the stall watch
/// saw that pool answer 4.5 s late in a full run).
enum BlockingIO {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()
}
