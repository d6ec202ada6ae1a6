import Foundation

/// Counters of one engine since it was opened.
public struct EngineMetrics: Hashable, Sendable {
    /// HTTP attempts by endpoint, retries included.
    public var httpRequests: [Endpoint: Int]
    /// Coin detail answers served without a request of their own (cached or shared).
    public var detailCacheHits: Int
    /// Chart answers served without a request of their own (cached or shared).
    public var chartCacheHits: Int = 0
    /// Calls refused without sending while a remembered Retry-After ran (SPEC §10).
    public var suppressedRequests: Int = 0

    /// The keys of the answer (`http_requests` holds one key per `Endpoint`).
    enum JSONKey: String, WireKeys {
        case httpRequests = "http_requests"
        case detailCacheHits = "detail_cache_hits"
        case chartCacheHits = "chart_cache_hits"
        case suppressedRequests = "suppressed_requests"
    }

    /// `{"http_requests":{"markets":n,"global":n,"detail":n,"market_chart":n,"market_chart_range":n,"simple_price":n},
    /// "detail_cache_hits":n,"chart_cache_hits":n,"suppressed_requests":n}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.httpRequests); w.beginObject()
        for endpoint in Endpoint.allCases { w.key(endpoint); w.number(httpRequests[endpoint] ?? 0) }
        w.endObject()
        w.key(JSONKey.detailCacheHits); w.number(detailCacheHits)
        w.key(JSONKey.chartCacheHits); w.number(chartCacheHits)
        w.key(JSONKey.suppressedRequests); w.number(suppressedRequests)
        w.endObject()
        return w.bytes
    }
}
