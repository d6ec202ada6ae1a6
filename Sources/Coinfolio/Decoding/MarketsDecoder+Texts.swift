#if SimdJSON
    import CSimdJSON
    import Foundation

    extension MarketsDecoder {
        /// Where the decoder copies a piece's coin texts (`Coin.Texts`): one buffer sized for
        /// every row's image and dates, shared by the piece's coins, instead of four heap
        /// strings per coin.
        struct TextWriter {
            let bytes: TextBytes
            /// The first byte not yet written.
            var cursor = 0

            /// A writer with room for the texts of `records`; nil when they have none (or more
            /// bytes than a held range counts: then they are made `String`s).
            init?(_ records: UnsafeBufferPointer<cf_sj_coin>) {
                var total = 0
                for position in records.indices where Int(records[position].state) == CF_SJ_ROW_OBJECT {
                    total += withUnsafePointer(to: records[position].strings) { tuple in
                        let strings = UnsafeRawPointer(tuple).assumingMemoryBound(to: cf_sj_string.self)
                        return MarketsDecoder.heldFields.reduce(0) { sum, field in
                            let s = strings[field]
                            return s.length >= 0 && s.bytes != nil ? sum + Int(s.length) : sum
                        }
                    }
                }
                guard total > 0, total <= Int(UInt32.max) else { return nil }
                bytes = TextBytes(capacity: total)
            }
        }

        /// The string fields held as `Coin.Texts`, in its `Field` order.
        static let heldFields = [CF_SJ_IMAGE, CF_SJ_ATH_DATE, CF_SJ_ATL_DATE, CF_SJ_LAST_UPDATED]

        /// A row's image and dates copied into `writer`'s buffer, or made `String`s when there is
        /// no writer (or no room left in it).
        static func held(_ strings: UnsafeBufferPointer<cf_sj_string>, into writer: inout TextWriter?) -> Coin.Texts {
            var total = 0
            for field in heldFields {
                let s = strings[field]
                if s.length >= 0, s.bytes != nil { total += Int(s.length) }
            }
            guard let bytes = writer?.bytes, let start = writer?.cursor, total <= bytes.capacity - start else {
                var texts = Coin.Texts()
                for (slot, field) in zip(Coin.Texts.Field.allCases, heldFields) {
                    let s = strings[field]
                    if s.length >= 0, let source = s.bytes {
                        texts[slot] = String(decoding: UnsafeRawBufferPointer(start: source, count: Int(s.length)), as: UTF8.self)
                    }
                }
                return texts
            }
            var cursor = start
            var ends = SIMD4<UInt32>()
            var absent: UInt8 = 0
            for slot in 0..<heldFields.count {
                let s = strings[heldFields[slot]]
                if s.length >= 0, let source = s.bytes {
                    memcpy(bytes.base + cursor, source, Int(s.length))
                    cursor += Int(s.length)
                } else {
                    absent |= 1 << slot
                }
                ends[slot] = UInt32(truncatingIfNeeded: cursor - start)
            }
            writer?.cursor = cursor
            return Coin.Texts(bytes: bytes, offset: start, ends: ends, absent: absent)
        }
    }
#endif  // SimdJSON
