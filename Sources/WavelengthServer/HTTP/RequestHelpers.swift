import Hummingbird
import HTTPTypes
import WavelengthWire

extension RequestContext {
    /// A path parameter that must look like an id: short and printable.
    func id(_ name: String) throws -> String {
        guard let value = parameters.get(name), !value.isEmpty, value.utf8.count <= WireLimits.maxIDLength,
            value.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_" }),
            // Dot segments are path syntax, never ids (the OpenAPI pattern says so too).
            !value.contains(".."), value.contains(where: { $0 != "." })
        else {
            throw APIError.badRequest("The \(name) in the path is not a valid id.", code: .invalidId)
        }
        return value
    }
}

extension Request {
    /// An optional integer query parameter within bounds, or a 400.
    func intQuery(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = queryValue(name) else { return value }
        guard let parsed = Int(raw), range.contains(parsed) else {
            throw APIError.badRequest("Query parameter \(name) must be a whole number in \(range).")
        }
        return parsed
    }

    func int64Query(_ name: String) throws -> Int64? {
        guard let raw = queryValue(name) else { return nil }
        guard let parsed = Int64(raw) else { throw APIError.badRequest("Query parameter \(name) must be a whole number.") }
        return parsed
    }

    func stringQuery(_ name: String, maxLength: Int = WireLimits.maxQueryLength) throws -> String? {
        guard let raw = queryValue(name) else { return nil }
        guard raw.utf8.count <= maxLength else {
            throw APIError.badRequest("Query parameter \(name) is longer than \(maxLength) bytes.", code: .tooLong)
        }
        return raw
    }
}

/// Answers with a value encoded as JSON and a chosen status.
struct JSONResponse<Value: ResponseEncodable>: ResponseGenerator {
    var status: HTTPResponse.Status
    var value: Value

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try value.response(from: request, context: context)
        response.status = status
        return response
    }
}
