#if canImport(Glibc)
import Glibc
#endif

/// glibc gives each thread that contends for `malloc` an arena of its own,
/// up to eight per core, and memory freed in one arena serves only that
/// arena's threads. A server that parks thousands of small objects
/// (stream listeners, WebSockets) while its request tasks come and go on
/// other threads keeps the request tasks' freed memory resident in their
/// arenas: `bench/stream_load.py` measured 7.1 KB a stream listener with
/// the default, 3.4 KB with two arenas, at no CPU cost it could see.
public enum MallocArenas {
    /// Two arenas, unless `MALLOC_ARENA_MAX` says otherwise (glibc reads it
    /// itself). Call first thing in `main`, before other threads exist.
    public static func limit() {
        #if canImport(Glibc)
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        // <malloc.h> isn't in Swift's Glibc module: found by name, called
        // with C's convention. M_ARENA_MAX is -8 in glibc's malloc.h.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-8, 2)
        #endif
    }
}
