// The public records are plain structs in WavelengthStore, so the
// repository protocols name no GRDB type; their table mapping lives here.
import GRDB
import WavelengthStore

extension PersonRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "person"
}

extension SessionRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "authSession"
}

extension InviteRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "invite"
}

extension ServerInviteRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "serverInvite"
}

extension TrackRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "track"
}

extension StationRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "station"
}

extension ReportRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "report"
}
