import Synchronization

/// The long pieces of work that report progress (SPEC §15).
public enum WorkPhase: String, Hashable, Sendable {
    /// `refresh()`: the `/coins/markets` pages; `done` and `total` count pages.
    case markets
    /// `refresh()`: the one `/global` request; `total` is 1.
    case global
    /// `refresh()`: the `ids=` request for held coins missing from the pages; counts coins.
    case ids
    /// A ledger CSV import; counts rows.
    case `import`
    /// Chart downloads; counts charts.
    case chart
    /// `fill_prices`: its range requests (SPEC §17); `total` is how many it plans to send.
    case prices
}

/// One report of progress: `done` of `total` units of `phase` are finished.
public struct WorkProgress: Hashable, Sendable {
    /// Which work this is about.
    public var phase: WorkPhase
    /// Units finished so far (0 when the phase starts).
    public var done: Int
    /// Units in all, nil when not known in advance. A phase that ends early (fewer coins than
    /// `coin_limit`) reports its last step with `total` equal to `done`.
    public var total: Int?

    /// A report of `done` of `total` units of `phase`.
    public init(phase: WorkPhase, done: Int, total: Int?) {
        self.phase = phase
        self.done = done
        self.total = total
    }

    /// The keys of a progress report.
    enum JSONKey: String, WireKeys {
        case phase
        case done
        case total
    }

    /// `{"phase":"markets","done":1,"total":5}` (`total` null when unknown).
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.phase); w.string(phase.rawValue)
        w.key(JSONKey.done); w.number(done)
        w.key(JSONKey.total); w.number(total)
        w.endObject()
        return w.bytes
    }
}

/// The handler an engine calls with progress, and the one place that calls it.
///
/// Work that takes long (refresh pages, CSV import, chart downloads) calls `report(_:done:total:)`
/// on the thread doing the work, so a host's handler runs on the thread that made the call.
/// The handler is read under a lock and called outside it: a handler may replace itself.
final class ProgressReporter: Sendable {
    typealias Handler = @Sendable (WorkProgress) -> Void

    private let handler = Mutex<Handler?>(nil)

    /// Replaces the handler; nil turns reporting off.
    func set(_ handler: Handler?) {
        self.handler.withLock { $0 = handler }
    }

    /// Tells the handler, if any, that `done` of `total` units of `phase` are finished.
    func report(_ phase: WorkPhase, done: Int, total: Int?) {
        guard let current = handler.withLock({ $0 }) else { return }
        current(WorkProgress(phase: phase, done: done, total: total))
    }
}
