// cf_decode_*: raw CoinGecko bodies in, model JSON out.
@_spi(ABI) import Coinfolio

/// `cf_decode_markets` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_decode_markets")
public func cf_decode_markets(_ body: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try namingBadUTF8("body") { try CoinGeckoBody.markets(readBody(body, "body")).jsonUTF8 } }
}

/// `cf_decode_global` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_decode_global")
public func cf_decode_global(_ body: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try namingBadUTF8("body") { try CoinGeckoBody.global(readBody(body, "body")).jsonUTF8 } }
}

/// `cf_decode_coin_detail` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_decode_coin_detail")
public func cf_decode_coin_detail(_ body: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try namingBadUTF8("body") { try CoinGeckoBody.coinDetail(readBody(body, "body")).jsonUTF8 } }
}

/// `cf_decode_market_chart` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_decode_market_chart")
public func cf_decode_market_chart(_ body: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try namingBadUTF8("body") { try CoinGeckoBody.marketChart(readBody(body, "body")).jsonUTF8 } }
}
