import GRDB
import WavelengthStore

/// SQLite's answers that mean storage is out of service, not that the
/// request was wrong: the disk is full, read-only or failing, or the file
/// can't be opened.
extension DatabaseError: StorageFault {
    public var isOutage: Bool {
        switch resultCode {
        case .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_NOMEM: true
        default: false
        }
    }
}
