import Hummingbird
import WavelengthWire

// The wire types are answered as JSON directly from route handlers.
extension StationView: ResponseEncodable {}
extension LyricsView: ResponseEncodable {}
extension AudienceView: ResponseEncodable {}
extension ScheduleView: ResponseEncodable {}
extension ShowView: ResponseEncodable {}
extension ShowPage: ResponseEncodable {}
extension CalendarLink: ResponseEncodable {}
extension ReminderView: ResponseEncodable {}
extension StreamLink: ResponseEncodable {}
extension StreamKeyView: ResponseEncodable {}
extension LiveSourceView: ResponseEncodable {}
extension IdentifyResponse: ResponseEncodable {}
extension TimelineWindow: ResponseEncodable {}
extension CreateStationResponse: ResponseEncodable {}
extension CommandAck: ResponseEncodable {}
extension SearchResponse: ResponseEncodable {}
extension TrackDetails: ResponseEncodable {}
extension TrackSummary: ResponseEncodable {}
extension EntryView: ResponseEncodable {}
extension ArtistSummary: ResponseEncodable {}
extension AlbumSummary: ResponseEncodable {}
extension AnalysisProgress: ResponseEncodable {}
extension StationPool: ResponseEncodable {}
extension StationAccess: ResponseEncodable {}
extension PartyView: ResponseEncodable {}
extension PersonView: ResponseEncodable {}
extension ProfileView: ResponseEncodable {}
extension AuthResponse: ResponseEncodable {}
extension RefreshResponse: ResponseEncodable {}
extension MeResponse: ResponseEncodable {}
extension DialView: ResponseEncodable {}
extension CodeView: ResponseEncodable {}
extension JoinResponse: ResponseEncodable {}
extension MemberView: ResponseEncodable {}
extension InviteCreated: ResponseEncodable {}
extension InviteView: ResponseEncodable {}
extension InviteLookup: ResponseEncodable {}
extension ClipView: ResponseEncodable {}
extension ClipList: ResponseEncodable {}
extension NearbyList: ResponseEncodable {}
extension AdminPersonView: ResponseEncodable {}
extension AuditEntryView: ResponseEncodable {}
extension LibraryScanStatus: ResponseEncodable {}
