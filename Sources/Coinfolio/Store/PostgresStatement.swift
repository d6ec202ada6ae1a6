#if PostgreSQL
    // Built with the PostgreSQL trait only (SPEC §21): without it nothing links libpq.
    import CPostgres
    import Foundation

    /// A statement of a `PostgresConnection`: its SQL (`$N` placeholders) and parameters, kept
    /// until it runs; the connection decides how it is sent (unnamed, or named within one
    /// transaction: `PostgresConnection+Statements`). The rows of a query are read whole into one
    /// result, then stepped.
    final class PostgresStatement: DatabaseStatement {
        private unowned let connection: PostgresConnection
        private let sql: String
        private enum Value {
            case null
            case text([CChar])
            case borrowed(UnsafeRawBufferPointer)
        }
        private var values: [Value]
        private var result: OpaquePointer?
        private var row: Int32 = -1
        private var rows: Int32 = 0

        init(connection: PostgresConnection, sql: String, parameterCount: Int) {
            self.connection = connection
            self.sql = sql
            values = Array(repeating: .null, count: parameterCount)
        }

        deinit { reset() }

        func clearBindings() {
            for index in values.indices { values[index] = .null }
        }

        private func set(_ index: Int32, _ value: Value) {
            let position = Int(index) - 1
            guard values.indices.contains(position) else { return }
            values[position] = value
        }

        func bind(_ index: Int32, _ text: String) { set(index, .text(Array(text.utf8CString))) }
        func bind(_ index: Int32, _ text: String?) { set(index, text.map { .text(Array($0.utf8CString)) } ?? .null) }
        func bind(_ index: Int32, _ value: Double) { set(index, .text(Array("\(value)".utf8CString))) }
        func bind(_ index: Int32, _ value: Int) { set(index, .text(Array(String(value).utf8CString))) }
        func bind(_ index: Int32, _ value: Int64) { set(index, .text(Array(String(value).utf8CString))) }
        func bind(_ index: Int32, _ value: ExactDecimal?) { bind(index, value?.description) }
        func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer?) {
            set(index, bytes.map { .borrowed($0) } ?? .null)
        }

        /// Sends the statement with its parameters; keeps the result for reading.
        private func execute(_ context: () -> String) throws {
            reset()
            let count = values.count
            // Text parameters go in one buffer, NUL-terminated each; blobs are sent in place.
            var texts: [CChar] = []
            var offsets = [Int](repeating: -1, count: count)
            var lengths = [Int32](repeating: 0, count: count)
            var formats = [Int32](repeating: 0, count: count)
            for (position, value) in values.enumerated() {
                switch value {
                case .null: break
                case .text(let text):
                    offsets[position] = texts.count
                    texts += text
                case .borrowed(let bytes):
                    lengths[position] = Int32(clamping: bytes.count)
                    formats[position] = 1
                }
            }
            let sent = try texts.withUnsafeBufferPointer { buffer throws -> OpaquePointer? in
                var pointers = [UnsafePointer<CChar>?](repeating: nil, count: count)
                for (position, value) in values.enumerated() {
                    switch value {
                    case .null: break
                    case .text: pointers[position] = buffer.baseAddress.map { $0 + offsets[position] }
                    case .borrowed(let bytes):
                        // A zero-length blob still needs a non-NULL pointer, or it is sent as NULL.
                        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                        pointers[position] = base?.assumingMemoryBound(to: CChar.self)
                    }
                }
                return try connection.send(sql, Int32(count), pointers, lengths, formats, context)
            }
            if let error = self.connection.failure(sent, context()) { throw error }
            result = sent
            rows = PQntuples(sent)
            row = -1
        }

        @discardableResult
        func run(_ context: @autoclosure () -> String) throws -> Int {
            try execute(context)
            defer { reset() }
            guard let result, let tuples = PQcmdTuples(result) else { return 0 }
            return Int(String(cString: tuples)) ?? 0
        }

        func next() throws -> Bool {
            if result == nil { try execute { "cannot read" } }
            row += 1
            return row < rows
        }

        func reset() {
            if let result { PQclear(result) }
            result = nil
            row = -1
            rows = 0
        }

        /// `?N` placeholders (outside quotes) as PostgreSQL's `$N`, and the highest N.
        static func numberedParameters(_ sql: String) -> (String, Int) {
            var output = ""
            output.reserveCapacity(sql.utf8.count)
            var highest = 0
            var quote: Character?
            var characters = sql.makeIterator()
            var pending: Character? = characters.next()
            while let character = pending {
                pending = characters.next()
                if let open = quote {
                    output.append(character)
                    if character == open { quote = nil }
                    continue
                }
                if character == "'" || character == "\"" {
                    quote = character
                    output.append(character)
                    continue
                }
                guard character == "?" else {
                    output.append(character)
                    continue
                }
                var digits = ""
                while let next = pending, next.isASCII, next.isNumber {
                    digits.append(next)
                    pending = characters.next()
                }
                output.append("$")
                output.append(digits)
                highest = max(highest, Int(digits) ?? 0)
            }
            return (output, highest)
        }

        // MARK: - Columns (binary results)

        private func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
            guard let result, row >= 0, row < rows, column < PQnfields(result), PQgetisnull(result, row, column) == 0 else { return nil }
            let length = Int(PQgetlength(result, row, column))
            guard let value = PQgetvalue(result, row, column) else { return nil }
            return UnsafeRawBufferPointer(start: UnsafeRawPointer(value), count: length)
        }

        private func type(_ column: Int32) -> Oid { result.map { PQftype($0, column) } ?? 0 }

        private static func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: T.Type) -> T? {
            guard bytes.count == MemoryLayout<T>.size else { return nil }
            var value: T = 0
            for byte in bytes { value = (value << 8) | T(byte) }
            return value
        }

        /// The column as a number when it is one (int2/4/8, float4/8, bool).
        private func number(_ column: Int32) -> (integer: Int64?, real: Double?) {
            guard let bytes = bytes(column) else { return (nil, nil) }
            switch type(column) {
            case 20: return (Self.bigEndian(bytes, as: Int64.self), nil)
            case 23: return (Self.bigEndian(bytes, as: Int32.self).map(Int64.init), nil)
            case 21: return (Self.bigEndian(bytes, as: Int16.self).map(Int64.init), nil)
            case 16: return (bytes.first.map { Int64($0) }, nil)
            case 701: return (nil, Self.bigEndian(bytes, as: UInt64.self).map(Double.init(bitPattern:)))
            case 700: return (nil, Self.bigEndian(bytes, as: UInt32.self).map { Double(Float(bitPattern: $0)) })
            default:
                let text = String(decoding: bytes, as: UTF8.self)
                return (Int64(text), Double(text))
            }
        }

        func text(_ column: Int32) -> String? {
            guard let bytes = bytes(column) else { return nil }
            switch type(column) {
            case 20, 21, 23, 16: return number(column).integer.map { String($0) }
            case 700, 701: return number(column).real.map { "\($0)" }
            default: return String(decoding: bytes, as: UTF8.self)
            }
        }

        func double(_ column: Int32) -> Double {
            let (integer, real) = number(column)
            return real ?? integer.map(Double.init) ?? 0
        }

        func int64(_ column: Int32) -> Int64 {
            let (integer, real) = number(column)
            if let integer { return integer }
            if let real, real.isFinite, abs(real) < 9.2e18 { return Int64(real) }
            return 0
        }

        func int(_ column: Int32) -> Int { Int(int64(column)) }

        func isNull(_ column: Int32) -> Bool {
            guard let result, row >= 0, row < rows else { return true }
            return PQgetisnull(result, row, column) != 0
        }

        func blob(_ column: Int32) -> Data? {
            guard let bytes = bytes(column) else { return nil }
            return Data(bytes)
        }

        func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            guard let bytes = bytes(column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return body(bytes.bindMemory(to: UInt8.self))
        }
    }
#endif  // PostgreSQL
