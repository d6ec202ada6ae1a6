import Foundation

/// The requests of one `fill_prices` call (SPEC §17): planned per round (`FillPlanner`), sent in
/// order within `maxRequests`, stopped by a 429, and the gap each job met on the way.
struct PriceFillRun {
    /// The most requests the call may send.
    let maxRequests: Int
    /// Requests sent so far (retries not counted).
    private(set) var sent = 0
    /// Requests planned within the bound, every round so far.
    private(set) var planned = 0
    /// A 429 stopped the requests (or a remembered Retry-After refused them unsent).
    private(set) var isRateLimited = false
    /// What each job (by index) met, in order; the last says why a job is still pending.
    private(set) var gaps: [Int: [PriceGap]] = [:]

    init(maxRequests: Int) {
        self.maxRequests = maxRequests
    }

    /// Plans `needs` (each waited on by the jobs of `owners`, same index) and sends the requests:
    /// `fetch` sends one (given the requests sent and planned, for progress) and returns its
    /// stored points or the gap CoinGecko answered; `stored` hands the points on.
    /// - Returns: the first failure that is not a gap or a rate limit (the later requests are not
    ///   sent), or nil.
    mutating func send(
        _ needs: [FillPlanner.Need], owners: [[Int]], plan: ClientConfiguration.Plan, now: Int64,
        fetch: (FillPlanner.Request, _ done: Int, _ total: Int) throws -> Result<[PricePoint], PriceGapError>,
        stored: (FillPlanner.Request, [PricePoint]) -> Void
    ) -> Error? {
        guard !needs.isEmpty else { return nil }
        let (requests, unpriceable) = FillPlanner.plan(needs, plan: plan, now: now)
        for (need, gap) in unpriceable { mark(owners[need], gap) }
        var budget = max(0, maxRequests - sent)
        if !isRateLimited { planned += min(requests.count, budget) }
        for request in requests {
            let jobs = request.needs.flatMap { owners[$0] }
            guard !isRateLimited else {
                mark(jobs, .rateLimited)
                continue
            }
            guard budget > 0 else {
                mark(jobs, .maxRequests)
                continue
            }
            budget -= 1
            do {
                let answer = try fetch(request, sent, planned)
                sent += 1
                switch answer {
                case .success(let points):
                    stored(request, points)
                    mark(jobs, .noPoint)  // what a job still without a price met last
                case .failure(let refused):
                    mark(jobs, refused.gap)
                }
            } catch let error as CoinfolioError where error.code == .rateLimited {
                if error.details[.sent] != .bool(false) { sent += 1 }
                isRateLimited = true
                mark(jobs, .rateLimited)
            } catch {
                return error
            }
        }
        return nil
    }

    private mutating func mark(_ jobs: [Int], _ gap: PriceGap) {
        for job in jobs { gaps[job, default: []].append(gap) }
    }
}
