/// A show's hosts (issue 13): who names them, and when being named counts.
///
/// Hosting is a right the owner gives, not a door into the station's roles:
/// only the owner names hosts, a ban or a revoked co-DJ role wins over any
/// show, and while it airs a host may run the sound and the room
/// (`StationPermissions.onAir`), nothing more.
public enum ShowHosts {
    /// Whether a save of a show may set `hostIDs`: the owner may name
    /// anyone; anyone else must leave the hosts as they were (none on a new
    /// show).
    public static func mayName(_ hostIDs: [String], existing: [String], actorIsOwner: Bool) -> Bool {
        actorIsOwner || Set(hostIDs) == Set(existing)
    }

    /// Whether a person named host may act as one: someone banned may not,
    /// whatever show names them; the owner and co-DJs need no show.
    public static func mayHost(_ facts: AccessFacts) -> Bool {
        facts.hasIdentity && !facts.isBanned && !facts.isOwner && !facts.isCoDJ
    }

    /// Whether a person may put a live source on the air: the owner at any
    /// time; a host of the show on the air while it airs, unless banned.
    public static func mayGoLive(isOwner: Bool, hostsShowOnAir: Bool, isBanned: Bool) -> Bool {
        isOwner || hostsShowOnAir && !isBanned
    }
}
