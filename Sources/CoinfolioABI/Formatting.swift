// cf_format_*: NumberFormat of the core; NULL for invalid arguments.
@_spi(ABI) import Coinfolio

private func currencyArgument(_ pointer: CString?) -> VsCurrency? {
    guard pointer != nil else { return .usd }
    guard let code = try? readString(pointer, "vs_currency") else { return nil }
    return try? VsCurrency(code)
}

/// `cf_format_currency` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_currency")
public func cf_format_currency(_ value: Double, _ minimumFractionDigits: Int32, _ maximumFractionDigits: Int32, _ vsCurrency: CString?)
    -> UnsafeMutablePointer<CChar>?
{
    guard let currency = currencyArgument(vsCurrency),
        NumberFormat.areValidFractionDigits(minimum: Int(minimumFractionDigits), maximum: Int(maximumFractionDigits))
    else { return nil }
    return newCString(
        NumberFormat.currency(
            value, minimumFractionDigits: Int(minimumFractionDigits),
            maximumFractionDigits: Int(maximumFractionDigits), vsCurrency: currency))
}

/// `cf_format_price` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_price")
public func cf_format_price(_ value: Double, _ vsCurrency: CString?) -> UnsafeMutablePointer<CChar>? {
    guard let currency = currencyArgument(vsCurrency) else { return nil }
    return newCString(NumberFormat.price(value, vsCurrency: currency))
}

/// `cf_format_value` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_value")
public func cf_format_value(_ value: Double, _ vsCurrency: CString?) -> UnsafeMutablePointer<CChar>? {
    guard let currency = currencyArgument(vsCurrency) else { return nil }
    return newCString(NumberFormat.value(value, vsCurrency: currency))
}

/// `cf_format_number` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_number")
public func cf_format_number(_ value: Double) -> UnsafeMutablePointer<CChar>? {
    newCString(NumberFormat.number(value))
}

/// `cf_format_percent` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_percent")
public func cf_format_percent(_ value: Double) -> UnsafeMutablePointer<CChar>? {
    newCString(NumberFormat.percent(value))
}

/// `cf_format_abbreviated` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_format_abbreviated")
public func cf_format_abbreviated(_ value: Double) -> UnsafeMutablePointer<CChar>? {
    newCString(NumberFormat.abbreviated(value))
}
