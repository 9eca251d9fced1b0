import Foundation
import Hummingbird
import NIOCore
import Synchronization
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A 4xx/5xx answer with a JSON body `{"error": {"message", "code"}}`.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: ErrorCode
    public var message: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(ErrorBody(message: message, code: code.rawValue))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    public static func notFound(_ what: String) -> APIError {
        APIError(.notFound, code: .notFound, what)
    }

    public static func badRequest(_ message: String, code: ErrorCode = .badRequest) -> APIError {
        APIError(.badRequest, code: code, message)
    }

    /// The HTTP answer for a refused timeline edit.
    public init(_ error: TimelineError) {
        let status: HTTPResponse.Status =
            switch error {
            case .unknownEntry, .unknownTrack: .notFound
            case .alreadyPlayed, .entryIsPlaying, .nothingPlaying, .notCurrent, .timelineFull, .paused, .notPaused, .live:
                .conflict
            case .indexOutOfRange, .positionOutOfRange, .notAnEdit: .badRequest
            }
        self.init(status, code: ErrorCode(error), error.description)
    }

    /// The HTTP answer for an event the station refused.
    public init(_ error: HubError) {
        switch error {
        case .stationFull(let limit):
            self.init(.conflict, code: .stationFull, "The station is full: it takes \(limit) listeners.")
        case .forbidden(let operation):
            self.init(.forbidden, code: .forbidden, StationGate.refusal(operation))
        case .staleEpoch(let current, let given):
            self.init(
                .conflict, code: .staleEpoch,
                "The DJ role changed hands (epoch \(current), the command says \(given)); it was not applied.")
        case .timeline(let error):
            self.init(error)
        case .request(let error):
            self.init(error)
        case .notOnAir:
            self.init(
                .conflict, code: .notOnAir,
                "Clips play between songs while someone listens: tune in to the station first.")
        case .room(let error):
            switch error {
            case .invalid: self.init(.badRequest, code: .badMessage, error.description)
            case .refused: self.init(.forbidden, code: .calibrationRefused, error.description)
            case .tooFast: self.init(.tooManyRequests, code: .tooFast, error.description)
            }
        case .chat(let error):
            let status: HTTPResponse.Status =
                switch error {
                case .notAllowed: .forbidden
                case .muted, .slowMode, .tooFast: .tooManyRequests
                case .empty, .tooLong, .controlCharacters, .invalidMute, .invalidSlowMode, .unknownReaction: .badRequest
                case .off, .cannotMute, .tooManyMutes, .notCurrent: .conflict
                case .unknownPerson: .notFound
                }
            self.init(status, code: ErrorCode(error), error.description)
        }
    }

    /// The HTTP answer for a refused request, vote or override.
    public init(_ error: RequestError) {
        let status: HTTPResponse.Status =
            switch error {
            case .unknownRequest, .notVetoed: .notFound
            case .notYours, .needsName, .blocked: .forbidden
            case .invalidSettings: .badRequest
            case .tooFast: .tooManyRequests
            case .notRequestsMode, .notAvailable, .noPlaylist, .alreadyScheduled, .closed, .tooManyPending, .tooLong,
                .playedRecently, .vetoed, .queueFull, .notLobbyMode, .noBallot, .ballotClosed, .notACandidate,
                .volumeVotingOff:
                .conflict
            }
        self.init(status, code: ErrorCode(error), error.description)
    }
}

/// Turns every error into a JSON body, so clients never have to parse HTML
/// or an empty 500.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            var converted = APIError(error.status, code: Self.code(for: error.status), error.body ?? error.status.reasonPhrase)
            converted.headers = error.headers
            throw converted
        } catch let error as TimelineError {
            throw APIError(error)
        } catch let error as HubError {
            throw APIError(error)
        } catch is NIOTooManyBytesError {
            throw APIError(
                .contentTooLarge, code: .tooLarge,
                "The request body is larger than \(context.maxUploadSize) bytes.")
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, code: Self.code(for: error.status), error.status.reasonPhrase)
        } catch let moved as StationElsewhere {
            // A cluster's station runs on one node; the balancer sends its
            // traffic there (see deploy/), and this answer covers the moment
            // it moves.
            context.logger.notice("Refused a request for a station another node runs: \(moved)")
            throw APIError.elsewhere("This station is on the air from another server of this site right now")
        } catch StorageError.notOwner(let id) {
            context.logger.notice("Refused a save to station \(id): another node holds its lease")
            throw APIError.elsewhere("This station is moving to another server of this site")
        } catch let fault as any StorageFault where fault.isOutage {
            // One line a minute while it lasts, not one a request.
            if OutageLog.shouldLog(at: ContinuousClock.now) {
                context.logger.error("Storage is out of service (answering 503): \(fault)")
            }
            var refusal = APIError(
                .serviceUnavailable, code: .serviceUnavailable,
                "The server can't save anything right now (its storage is full or failing); try again later.")
            refusal.headers[.retryAfter] = "60"
            throw refusal
        } catch {
            context.logger.error("Unhandled error: \(error)")
            throw APIError(.internalServerError, code: .internal, "Something went wrong on the server.")
        }
    }

    static func code(for status: HTTPResponse.Status) -> ErrorCode {
        switch status.code {
        case 400: .badRequest
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 405: .methodNotAllowed
        case 409: .conflict
        case 413: .tooLarge
        case 416: .rangeNotSatisfiable
        case 429: .rateLimited
        case 503: .serviceUnavailable
        default: .httpError
        }
    }
}

/// When a storage outage was last logged: once a minute is enough to see
/// it, and a log line per request would fill the disk that is already full.
enum OutageLog {
    private static let lastLogged = Mutex<ContinuousClock.Instant?>(nil)

    static func shouldLog(at now: ContinuousClock.Instant) -> Bool {
        lastLogged.withLock { last in
            if let last, now - last < .seconds(60) { return false }
            last = now
            return true
        }
    }
}

extension APIError {
    /// A station another node of a cluster runs, or one moving between
    /// nodes: the client tries again in a moment.
    static func elsewhere(_ reason: String) -> APIError {
        var refusal = APIError(.serviceUnavailable, code: .serviceUnavailable, reason + "; try again in a moment.")
        refusal.headers[.retryAfter] = "1"
        return refusal
    }
}
