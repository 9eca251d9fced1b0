#if canImport(CAvahi)
import CAvahi
import Logging
import Synchronization
import WavelengthCore

/// One connection to the system's avahi-daemon (over D-Bus), run by
/// Avahi's threaded poll: its own thread, so no callback ever waits on
/// Swift's cooperative pool, and nothing here blocks it either.
///
/// It publishes a set of services (each an entry group) and browses one
/// service type, keeping both across the daemon going away and coming back
/// (`AVAHI_CLIENT_NO_FAIL`): with no daemon running it says so once in the
/// log and keeps trying quietly.
///
/// `@unchecked Sendable`: every stored property is read and written only
/// with the threaded poll's lock held, either by Avahi itself around its
/// callbacks (which run on the poll thread) or by `locked` around calls
/// from other threads. `logger` and `poll` are set once in `init`.
final class AvahiSession: @unchecked Sendable {
    struct Service: Equatable {
        var name: String
        var type: String
        var port: UInt16
        var txt: [String]
    }

    /// A service another party announced, as resolved.
    struct Found: Equatable {
        var name: String
        var host: String
        var port: Int
        var txt: [String]
        var local: Bool
    }

    private let logger: Logger
    private let poll: OpaquePointer?
    private var client: OpaquePointer?
    /// What should be published, by key; and the entry group holding each.
    private var wanted: [String: Service] = [:]
    private var groups: [String: OpaquePointer] = [:]
    /// Each published name actually used (after a clash, another).
    private var names: [String: String] = [:]
    /// The service type browsed, its browser, and what it found so far.
    private var browsedType: String?
    private var browser: OpaquePointer?
    private var found: [String: Found] = [:]
    private var resolvers: [String: OpaquePointer] = [:]
    private var onFound: (@Sendable ([Found]) -> Void)?
    private var toldNoDaemon = false
    private var running = false
    /// When the client could not be made at all (no D-Bus yet: a server
    /// started before the bus, as a machine boots), the next try, and the
    /// wait before it (2 s, doubling to a minute).
    private var retry: OpaquePointer?
    private var retryAfterSeconds: UInt32 = 2
    private var toldUnavailable = false
    /// Inside `avahi_client_new`, whose first callbacks come before it
    /// returns; and whether one of them said the client failed (it is then
    /// freed by `connect`, not by the callback, and tried again later).
    private var connecting = false
    private var failedWhileConnecting = false

    init(logger: Logger) {
        self.logger = logger
        poll = avahi_threaded_poll_new()
        guard let poll else {
            logger.warning("mDNS: Avahi's poll loop could not be made; stations are not announced on the LAN")
            return
        }
        // The client is made before the loop runs, so its first callbacks
        // find `self` whole.
        connect()
        if avahi_threaded_poll_start(poll) < 0 {
            logger.warning("mDNS: Avahi's poll loop could not start; stations are not announced on the LAN")
        }
    }

    deinit {
        if let poll {
            avahi_threaded_poll_stop(poll)
            if let retry, let api = avahi_threaded_poll_get(poll) { api.pointee.timeout_free(retry) }
            if let client { avahi_client_free(client) }
            avahi_threaded_poll_free(poll)
        }
    }

    /// Whether the daemon answers.
    var isRunning: Bool { locked { running } }

    /// Publishes exactly `services` (by key): new ones are added, changed
    /// ones replaced, missing ones withdrawn.
    func publish(_ services: [String: Service]) {
        locked {
            let previous = wanted
            wanted = services
            for key in previous.keys where services[key] == nil { withdraw(key) }
            for (key, service) in services where previous[key] != service || groups[key] == nil {
                withdraw(key)
                add(key, service)
            }
        }
    }

    /// Browses `type`; `changed` gets everything found so far after each
    /// change (on the poll thread: it must return quickly).
    func browse(_ type: String, changed: @escaping @Sendable ([Found]) -> Void) {
        locked {
            browsedType = type
            onFound = changed
            startBrowsing()
        }
    }

    // MARK: With the lock held

    private func locked<T>(_ body: () -> T) -> T {
        guard let poll else { return body() }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return body()
    }

    private func connect() {
        guard let poll else { return }
        var error: Int32 = 0
        connecting = true
        failedWhileConnecting = false
        let made = avahi_client_new(
            avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL,
            { client, state, userdata in
                guard let userdata else { return }
                Unmanaged<AvahiSession>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, state)
            }, Unmanaged.passUnretained(self).toOpaque(), &error)
        connecting = false
        if let made, !failedWhileConnecting {
            client = made
            if toldUnavailable { logger.info("mDNS: Avahi can be used now") }
            toldUnavailable = false
            retryAfterSeconds = 2
            return
        }
        if let made {
            dropAll()
            avahi_client_free(made)
        }
        client = nil
        // Said once; tried again quietly, as when the daemon goes away.
        if !toldUnavailable {
            let why = made == nil ? String(cString: avahi_strerror(error)) : "it failed as it started"
            logger.warning("mDNS: Avahi could not be used (\(why)); stations are not announced on the LAN until it can be")
            toldUnavailable = true
        }
        tryAgainLater()
    }

    /// Makes the client again after a wait, on the poll thread.
    private func tryAgainLater() {
        guard let poll, retry == nil, let api = avahi_threaded_poll_get(poll) else { return }
        var when = timeval()
        avahi_elapse_time(&when, retryAfterSeconds * 1_000, 0)
        retryAfterSeconds = min(60, retryAfterSeconds * 2)
        retry = api.pointee.timeout_new(
            api, &when,
            { timeout, userdata in
                guard let userdata else { return }
                let session = Unmanaged<AvahiSession>.fromOpaque(userdata).takeUnretainedValue()
                session.retryFired(timeout)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func retryFired(_ timeout: OpaquePointer?) {
        if let poll, let api = avahi_threaded_poll_get(poll), let timeout { api.pointee.timeout_free(timeout) }
        retry = nil
        connect()
    }

    private func clientChanged(_ changed: OpaquePointer?, _ state: AvahiClientState) {
        // The first callback can come from inside avahi_client_new, before
        // it has returned the client.
        if client == nil { client = changed }
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            running = true
            if toldNoDaemon { logger.info("mDNS: the Avahi daemon is back; announcing on the LAN") }
            toldNoDaemon = false
            for key in groups.keys { withdraw(key) }
            for (key, service) in wanted { add(key, service) }
            startBrowsing()
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host's own name is being settled: publish again once running.
            for group in groups.values { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            running = false
            if !toldNoDaemon {
                logger.notice("mDNS: no Avahi daemon is running; stations are not announced on the LAN until one starts")
                toldNoDaemon = true
            }
        case AVAHI_CLIENT_FAILURE:
            running = false
            // Failed as it was made: `connect` frees it and tries again later.
            if connecting {
                failedWhileConnecting = true
                return
            }
            // The daemon went away: start over, waiting for it to come back.
            dropAll()
            if let client { avahi_client_free(client) }
            client = nil
            connect()
        default:
            break
        }
    }

    private func dropAll() {
        for group in groups.values { avahi_entry_group_free(group) }
        groups = [:]
        for resolver in resolvers.values { avahi_service_resolver_free(resolver) }
        resolvers = [:]
        if let browser { avahi_service_browser_free(browser) }
        browser = nil
        if !found.isEmpty {
            found = [:]
            onFound?([])
        }
    }

    private func withdraw(_ key: String) {
        if let group = groups.removeValue(forKey: key) { avahi_entry_group_free(group) }
    }

    private func add(_ key: String, _ service: Service) {
        guard running, let client else { return }
        guard let group = avahi_entry_group_new(client, { group, state, userdata in
            guard let userdata, state == AVAHI_ENTRY_GROUP_COLLISION, let group else { return }
            Unmanaged<AvahiSession>.fromOpaque(userdata).takeUnretainedValue().collided(group)
        }, Unmanaged.passUnretained(self).toOpaque()) else {
            logger.warning("mDNS: could not announce \(service.name): \(lastError)")
            return
        }
        groups[key] = group
        register(key, service, in: group, as: names[key] ?? service.name)
    }

    private func register(_ key: String, _ service: Service, in group: OpaquePointer, as name: String) {
        names[key] = name
        let txt = Self.stringList(service.txt)
        defer { avahi_string_list_free(txt) }
        let added = avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name, service.type, nil, nil, service.port, txt)
        if added == AVAHI_ERR_COLLISION {
            renamed(key, service, in: group, after: name)
            return
        }
        if added < 0 || avahi_entry_group_commit(group) < 0 {
            logger.warning("mDNS: could not announce \(name): \(lastError)")
        }
    }

    /// Another service on the network has the name: take Avahi's next one
    /// ("Name #2").
    private func collided(_ group: OpaquePointer) {
        guard let key = groups.first(where: { $0.value == group })?.key, let service = wanted[key] else { return }
        avahi_entry_group_reset(group)
        renamed(key, service, in: group, after: names[key] ?? service.name)
    }

    private func renamed(_ key: String, _ service: Service, in group: OpaquePointer, after name: String) {
        guard let next = avahi_alternative_service_name(name) else { return }
        let alternative = String(cString: next)
        avahi_free(next)
        register(key, service, in: group, as: alternative)
    }

    private var lastError: String {
        client.map { String(cString: avahi_strerror(avahi_client_errno($0))) } ?? "no client"
    }

    private static func stringList(_ strings: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>? = nil
        for string in strings.reversed() { list = avahi_string_list_add(list, string) }
        return list
    }

    // MARK: Browsing

    private func startBrowsing() {
        guard running, browser == nil, let client, let browsedType else { return }
        browser = avahi_service_browser_new(
            client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET), browsedType, nil, AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, flags, userdata in
                guard let userdata, let name, let type, let domain else { return }
                Unmanaged<AvahiSession>.fromOpaque(userdata).takeUnretainedValue().browsed(
                    event, interface: interface, proto: proto, name: String(cString: name), type: String(cString: type),
                    domain: String(cString: domain), flags: flags)
            }, Unmanaged.passUnretained(self).toOpaque())
        if browser == nil { logger.warning("mDNS: could not browse the LAN: \(lastError)") }
    }

    private func browsed(
        _ event: AvahiBrowserEvent, interface: AvahiIfIndex, proto: AvahiProtocol, name: String, type: String,
        domain: String, flags: AvahiLookupResultFlags
    ) {
        let key = "\(interface)/\(proto)/\(name)/\(type)/\(domain)"
        switch event {
        case AVAHI_BROWSER_NEW:
            guard resolvers[key] == nil, let client else { return }
            let resolver = avahi_service_resolver_new(
                client, interface, proto, name, type, domain, AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                { resolver, _, _, event, name, _, _, _, address, port, txt, flags, userdata in
                    guard let userdata else { return }
                    let session = Unmanaged<AvahiSession>.fromOpaque(userdata).takeUnretainedValue()
                    session.resolved(resolver, event, name: name.map { String(cString: $0) } ?? "", address: address, port: port, txt: txt, flags: flags)
                }, Unmanaged.passUnretained(self).toOpaque())
            if let resolver { resolvers[key] = resolver }
        case AVAHI_BROWSER_REMOVE:
            if let resolver = resolvers.removeValue(forKey: key) { avahi_service_resolver_free(resolver) }
            if found.removeValue(forKey: key) != nil { onFound?(Array(found.values)) }
        default:
            break
        }
    }

    private func resolved(
        _ resolver: OpaquePointer?, _ event: AvahiResolverEvent, name: String, address: UnsafePointer<AvahiAddress>?,
        port: UInt16, txt: UnsafeMutablePointer<AvahiStringList>?, flags: AvahiLookupResultFlags
    ) {
        guard let resolver, let key = resolvers.first(where: { $0.value == resolver })?.key else { return }
        guard event == AVAHI_RESOLVER_FOUND, let address else { return }
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&text, text.count, address)
        var strings: [String] = []
        var item = txt
        while let current = item, strings.count < 64 {
            if let bytes = avahi_string_list_get_text(current) {
                let size = avahi_string_list_get_size(current)
                strings.append(String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self))
            }
            item = avahi_string_list_get_next(current)
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        found[key] = Found(
            name: name, host: host, port: Int(port), txt: strings,
            local: flags.rawValue & AVAHI_LOOKUP_RESULT_LOCAL.rawValue != 0)
        onFound?(Array(found.values))
    }
}
#endif
