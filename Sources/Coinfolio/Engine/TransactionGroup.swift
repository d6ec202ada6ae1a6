/// The rows one ledger call wrote together (SPEC §16): a trade's legs, a move's two sides, a
/// transaction and its fee row. `{"group_id","transactions":[…]}`.
public struct TransactionGroup: Hashable, Sendable {
    /// The group's id, shared by every row (nil when the call wrote one row alone).
    public var groupID: String?
    /// The stored rows, with their ids, in ledger order.
    public var transactions: [Transaction]

    /// A group.
    public init(groupID: String?, transactions: [Transaction]) {
        self.groupID = groupID
        self.transactions = transactions
    }

    /// The keys of a group answer.
    enum JSONKey: String, WireKeys {
        case groupID = "group_id"
        case transactions
    }

    /// `{"group_id","transactions":[{"id","portfolio","coin_id","kind",…}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        // A row's answer is 380–410 bytes with nulls (a trade's two rows about 800): room for it
        // without growing the buffer (a copy) once.
        var w = JSONWriter(reserving: transactions.count * 448 + 64)
        w.beginObject()
        w.key(JSONKey.groupID); w.string(groupID)
        w.key(JSONKey.transactions); w.beginArray()
        for transaction in transactions { w.beginObject(); transaction.writeJSON(to: &w); w.endObject() }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
