import Foundation
import Hummingbird

/// Serves a file from disk as audio players expect: whole (200) or one byte
/// range (206), with Accept-Ranges, and HEAD without a body.
struct FileResponder: Sendable {
    let fileIO = FileIO()

    /// A whole file (200) or one byte range of it (206), with Accept-Ranges.
    func serve(
        path: String, contentType: String, request: Request, context: AppRequestContext,
        cacheControl: String = "public, max-age=3600"
    ) async throws -> Response {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else {
            throw APIError.notFound("The file for this item is missing from disk; rescan the library.")
        }
        var headers: HTTPFields = [.contentType: contentType, .acceptRanges: "bytes", .cacheControl: cacheControl]
        let isHead = request.method == .head
        if let rangeHeader = request.headers[.range] {
            switch ByteRange.parse(rangeHeader, fileSize: size) {
            case .failure(.malformed):
                break  // not one byte range: ignored, the whole file goes (RFC 9110 §14.2)
            case .success(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
                headers[.contentLength] = String(range.count)
                let body = isHead ? ResponseBody() : try await fileIO.loadFile(path: path, range: range, context: context)
                return Response(status: .partialContent, headers: headers, body: body)
            case .failure(.unsatisfiable):
                var error = APIError(
                    .rangeNotSatisfiable, code: .rangeNotSatisfiable, "The Range header starts past the end of the \(size)-byte file.")
                error.headers[.contentRange] = "bytes */\(size)"
                throw error
            }
        }
        headers[.contentLength] = String(size)
        let body = isHead ? ResponseBody() : try await fileIO.loadFile(path: path, context: context)
        return Response(status: .ok, headers: headers, body: body)
    }
}
