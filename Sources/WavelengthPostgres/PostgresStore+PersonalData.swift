import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: PersonalDataRepository {
    public func chatMessages(by personID: String, limit: Int) async throws -> [AuthoredMessage] {
        try await query(
            """
            SELECT id, station_id, person_id, name, handle, text, sent_at FROM chat_message
            WHERE person_id = \(personID) ORDER BY sent_at DESC, seq DESC LIMIT \(limit)
            """
        ).all { row in
            AuthoredMessage(
                stationID: try row.value("station_id"),
                message: ChatMessage(
                    id: try row.value("id"), personID: try row.value("person_id"), name: try row.value("name"),
                    handle: try row.value("handle"), text: try row.value("text"), sentAt: try row.value("sent_at")))
        }
    }

    public func clips(by personID: String, limit: Int) async throws -> [VoiceClip] {
        try await query(
            """
            SELECT \(unescaped: Self.clipColumns) FROM voice_clip WHERE person_id = \(personID)
            ORDER BY created_at DESC, seq DESC LIMIT \(limit)
            """
        ).all(Self.clip)
    }
}
