// Whoever uses the SQLite storage uses the records and repository
// protocols it implements.
@_exported import WavelengthStore
