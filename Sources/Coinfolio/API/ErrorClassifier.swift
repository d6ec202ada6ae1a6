import Foundation

/// Turns an HTTP answer that is not data into a `CoinfolioError` (SPEC §5 and §10): 429 →
/// `.rateLimited` (details `retry_after_s`); 401, or a JSON error code 10002, 10005, 10010, 10011
/// or 10012 → `.unauthorized`; 404 → `.notFound`; any other non-2xx → `.http` — a 403 with a
/// non-JSON body (a CDN's block page) included, since "check your key" would be the wrong fix.
/// Every error carries `http_status`, and CoinGecko's `error_code` whenever the body has one (in any
/// of the three shapes `APIErrorBody` reads); a 10012 answer also carries `details.reason`
/// `"history_limit"`.
enum ErrorClassifier {
    /// Error codes CoinGecko uses for a missing, invalid or wrong-plan key, and 10012 (a range
    /// the key's plan may not ask for).
    static let unauthorizedErrorCodes: Set<Int> = [10002, 10005, 10010, 10011, 10012]

    /// CoinGecko's error code for a time range beyond the plan's: the public and demo plans may
    /// ask for at most 365 days of history.
    static let timeRangeErrorCode = 10012

    /// Classifies a non-2xx answer (or a 2xx CoinGecko error object). nil: a plain HTTP error.
    /// CoinGecko's own message is quoted with `apiKey` redacted first (any letter case), then cut
    /// to 200 bytes, so no part of the key can survive.
    static func classify(status: Int, headers: [String: String], body: Data, apiKey: String? = nil) -> CoinfolioError? {
        let api = APIErrorBody(body)
        var details: [CoinfolioError.DetailKey: CoinfolioError.Detail] = [.httpStatus: .number(Double(status))]
        if let code = api?.errorCode { details[.errorCode] = .number(Double(code)) }
        let said = api?.message.map { ": \(redacting(apiKey, in: $0).truncated(200))" } ?? ""

        if status == 429 || api?.errorCode == 429 {
            var message = "CoinGecko rate limit reached (HTTP 429)\(said)"
            if let retryAfter = headers["retry-after"].flatMap({ parseRetryAfter($0) }) {
                details[.retryAfterS] = .number(retryAfter)
                message += "; retry after \(NumberFormat.number(retryAfter).replacingOccurrences(of: ".00", with: "")) s"
            }
            return CoinfolioError(.rateLimited, message, details: details)
        }
        if let code = api?.errorCode, unauthorizedErrorCodes.contains(code) {
            let reason: String
            if code == timeRangeErrorCode {
                details[.reason] = .string(CoinfolioError.Reason.historyLimit.rawValue)
                reason =
                    "CoinGecko refused the time range (error 10012): public and demo plans allow at most \(ChartDays.planLimit) days of history"
            } else {
                reason = "CoinGecko refused the API key (error \(code))"
            }
            return CoinfolioError(.unauthorized, "\(reason)\(said)", details: details)
        }
        switch status {
        case 200..<300:
            return nil
        case 401:
            return CoinfolioError(.unauthorized, "CoinGecko refused the request (HTTP 401)\(said)", details: details)
        case 403:
            return CoinfolioError(.http, "HTTP 403 (forbidden; not a key error)\(said)", details: details)
        case 404:
            return CoinfolioError(.notFound, "not found (HTTP 404)\(said)", details: details)
        default:
            return CoinfolioError(.http, "HTTP \(status)\(said)", details: details)
        }
    }

    /// `Retry-After` in seconds: a non-negative decimal number of seconds (`120`, `1.5`), or an
    /// HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`, RFC 9110 IMF-fixdate). Anything else — `0x10`,
    /// `1e3`, `-5`, `inf`, `nan`, an empty value — is no Retry-After (nil), and the normal
    /// backoff applies.
    static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.wholeMatch(of: #/[0-9]{1,12}(\.[0-9]{1,9})?/#) != nil {
            return Double(text)
        }
        guard text.wholeMatch(of: #/[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT/#) != nil else {
            return nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now).rounded(.up))
    }
}

/// CoinGecko's error bodies, read in this one place. The code and message come in three shapes:
/// `{"status":{"error_code":N,"error_message":"…"}}` (most keyed errors and 429),
/// `{"error":{"status":{"error_code":N,"error_message":"…"}}}` (10012 on a chart), and at the top
/// level, `{"timestamp":"…","error_code":N,"error_message":"…"}` (a demo key sent to the pro host,
/// or the reverse: 400 with 10010 or 10011); the first shape present wins. `{"error":"…"}` and
/// `{"status":500,"error":"…"}` carry a message only. A code is an integer JSON number (a string,
/// a fraction or a boolean is no code). An HTML or plain-text body reads as nil, and so does one
/// over `maximumSize` (CoinGecko's are a few hundred bytes; Foundation's parse of a huge one could
/// not be interrupted): it is classified by status alone.
struct APIErrorBody {
    var errorCode: Int?
    var message: String?

    /// The largest body read for an error code: 64 KiB.
    static let maximumSize = 1 << 16

    init?(_ body: Data) {
        guard body.count <= Self.maximumSize, let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
            first == UInt8(ascii: "{"),
            let object = try? JSONValue.parse(body: body), case .object = object
        else { return nil }
        let shapes: [JSONValue?] = [object["status"], object["error"]?["status"], object]
        for case let status? in shapes {
            guard case .object = status else { continue }
            if errorCode == nil { errorCode = Self.integer(status["error_code"]) }
            if message == nil, let text = status["error_message"]?.string {
                message = text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        if message == nil, let text = object["error"]?.string { message = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        if errorCode == nil && message == nil { return nil }
    }

    /// An integer JSON number within ±2^53; anything else (a string, 10011.5, true) is nil.
    private static func integer(_ value: JSONValue?) -> Int? {
        guard let double = value?.double, double.rounded() == double, abs(double) <= 9_007_199_254_740_992 else { return nil }
        return Int(double)
    }
}
