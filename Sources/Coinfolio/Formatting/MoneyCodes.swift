/// Codes that name money, not coins: every active ISO 4217 currency (and the metals and units of
/// account it lists), plus `vef`, which CoinGecko still quotes. A trade's sides and a fee's coin
/// must be coins (SPEC §16: fiat ↔ coin is a buy or a sell), so an id spelled like one of these
/// (`usd`, `eur`, `jpy`) is refused there; no CoinGecko coin id is an ISO 4217 code.
enum MoneyCodes {
    /// Whether `id` is a money code (lower-case, as coin ids and `vs_currency` codes are written).
    static func isMoney(_ id: String) -> Bool { id.utf8.count == 3 && codes.contains(id) }

    static let codes: Set<String> = Set(
        """
        aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bhd bif bmd bnd bob bov brl bsd btn bwp byn bzd cad cdf \
        che chf chw clf clp cny cop cou crc cuc cup cve czk djf dkk dop dzd egp ern etb eur fjd fkp gbp gel ghs gip gmd \
        gnf gtq gyd hkd hnl hrk htg huf idr ils inr iqd irr isk jmd jod jpy kes kgs khr kmf kpw krw kwd kyd kzt lak lbp \
        lkr lrd lsl lyd mad mdl mga mkd mmk mnt mop mru mur mvr mwk mxn mxv myr mzn nad ngn nio nok npr nzd omr pab pen \
        pgk php pkr pln pyg qar ron rsd rub rwf sar sbd scr sdg sek sgd shp sle sll sos srd ssp stn svc syp szl thb tjs \
        tmt tnd top try ttd twd tzs uah ugx usd usn uyi uyu uyw uzs ved vef ves vnd vuv wst xaf xag xau xcd xdr xof xpd \
        xpf xpt yer zar zmw zwl
        """.split(separator: " ").map(String.init))
}
