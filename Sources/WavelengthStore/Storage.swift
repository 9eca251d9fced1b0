import WavelengthCore

/// Everything a running server keeps, as one value: every repository the
/// server reads and writes. The server names only this; which storage it is
/// (SQLite through GRDB, the in-memory one in tests, PostgreSQL) is chosen
/// by whoever starts it.
public typealias Storage = StationRepository & StationAccessRepository & PeopleRepository & LinkTokenRepository
    & StreamKeyRepository & ScheduleRepository & TrackRepository & AnalysisRepository & LibraryIndex
    & LikesRepository & ClipRepository & AttemptRepository & StorageHealth & StationLeases & ClusterSignals
    & OperatorRepository & RegistrationRepository & PasswordResetRepository
    & ReportRepository & BlockRepository & PersonalDataRepository & UploadRepository & TagOverrideRepository
