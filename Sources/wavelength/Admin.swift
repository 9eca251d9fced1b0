import ArgumentParser
import Foundation
import Logging
import WavelengthPostgres
import WavelengthSQLite
import WavelengthServer

/// `wavelength admin`: the server's administrators, named from the host's
/// shell. Whoever can run this on the host already holds the data folder,
/// so the shell is the trust root (as Navidrome's first user, or
/// Mastodon's `tootctl`): there is no default password to guess.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The server's administrators, from the host's shell (the server may be running).",
        subcommands: [AdminGrant.self, AdminRevoke.self, AdminList.self])
}

/// The shell's entry in the audit log.
private func shellEntry(_ action: String, _ person: String, reason: String) -> AuditEntry {
    let user = ProcessInfo.processInfo.environment["USER"].map { " (\($0))" } ?? ""
    return AuditEntry(
        at: Int64(Date().timeIntervalSince1970 * 1000), actorID: nil, actorName: "the host's shell" + user, action: action,
        subjectKind: "person", subjectID: person, subjectName: "@" + person, reason: reason)
}

struct AdminGrant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant", abstract: "Make the account with this handle an administrator.")

    @Argument(help: "The account's handle.")
    var handle: String

    @Option(help: "Why, for the audit log.")
    var reason: String = "granted from the host's shell"

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await setAdministrator(handle: handle, true, reason: reason, store: store)
    }
}

struct AdminRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Make the account with this handle an administrator no longer.")

    @Argument(help: "The account's handle.")
    var handle: String

    @Option(help: "Why, for the audit log.")
    var reason: String = "revoked from the host's shell"

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await setAdministrator(handle: handle, false, reason: reason, store: store)
    }
}

private func setAdministrator(handle: String, _ isAdministrator: Bool, reason: String, store: StoreOptions) async throws {
    guard (1...64).contains(handle.utf8.count) else { throw ValidationError("A handle is 1 to 64 characters.") }
    guard (1...500).contains(reason.utf8.count) else { throw ValidationError("--reason must be 1 to 500 bytes.") }
    let handle = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
    let person = try await store.withStore { store in
        try await store.setAdministrator(
            handle: handle, isAdministrator, audit: shellEntry(isAdministrator ? "grant-admin" : "revoke-admin", handle, reason: reason))
    }
    guard let person else {
        throw ValidationError("No account has the handle @\(handle) (guests have none: they sign up first).")
    }
    print(isAdministrator
        ? "@\(person.handle ?? handle) (\(person.displayName)) is an administrator now. The admin screen is in their account menu."
        : "@\(person.handle ?? handle) (\(person.displayName)) is not an administrator now.")
}

struct AdminList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the administrators.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let admins = try await store.withStore { try await $0.administrators() }
        if admins.isEmpty {
            print("No administrators yet: `wavelength admin grant HANDLE` makes one.")
        }
        for person in admins { print("@\(person.handle ?? "?")  \(person.displayName)") }
    }
}
