#if SimdJSON
    // Built with the SimdJSON trait only (SPEC §21): without it `MarketsTreeDecoder` decodes.
    import CSimdJSON
    import Synchronization

    /// The pool of simdjson decoders (parser and buffers), so repeated decodes reuse warm buffers
    /// instead of faulting fresh pages in each time. One decoder serves one thread at a time.
    enum SimdJSON {
        /// A decoder that grew past this (a huge body) is freed after use rather than kept.
        static let keepLimit = 16 << 20
        /// Decoders kept for reuse at most.
        static let poolSize = 4

        private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

        private static let pool = Mutex<[Handle]>([])

        /// Runs `body` with a decoder from the pool (or a new one), then returns it to the pool.
        /// - Throws: `.internalError` when there is no memory for a decoder, or what `body` throws.
        static func withDecoder<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
            let reused = pool.withLock { $0.popLast() }
            guard let decoder = reused?.pointer ?? cf_sj_decoder_new() else {
                throw CoinfolioError(.internalError, "out of memory for the JSON decoder")
            }
            defer {
                if cf_sj_decoder_footprint(decoder) > keepLimit {
                    cf_sj_decoder_free(decoder)
                } else {
                    let kept = pool.withLock { handles -> Bool in
                        guard handles.count < poolSize else { return false }
                        handles.append(Handle(pointer: decoder))
                        return true
                    }
                    if !kept { cf_sj_decoder_free(decoder) }
                }
            }
            return try body(decoder)
        }
    }
#endif  // SimdJSON
