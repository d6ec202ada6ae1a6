@_spi(ABI) import Coinfolio
import Foundation

// The plumbing every @_cdecl thunk shares: reading C arguments, writing outputs and errors.
// No business rule lives here (SPEC §1): a thunk converts arguments, calls the core, converts back.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A borrowed C string argument (`const char *`).
public typealias CString = UnsafePointer<CChar>
/// A `char **` output argument.
public typealias OutString = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

/// A copy of `text` in malloc'd memory, released by `cf_string_free`.
func newCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    strdup(text)
}

/// Reads a required UTF-8 string argument.
/// - Throws: `.invalidArgument` for NULL; for bytes that are not UTF-8, with details
///   `{"reason":"bad_utf8","input":name}` (every thunk's string argument reads through here).
func readString(_ pointer: CString?, _ name: String) throws -> String {
    guard let pointer else { throw CoinfolioError(.invalidArgument, "\(name) is NULL") }
    guard let text = String(validatingCString: pointer) else { throw CoinfolioError.badUTF8(input: name) }
    return text
}

/// Reads an optional UTF-8 string argument (NULL → nil).
func readOptionalString(_ pointer: CString?, _ name: String) throws -> String? {
    guard pointer != nil else { return nil }
    return try readString(pointer, name)
}

/// Reads a JSON body argument as bytes, borrowed rather than copied: the caller's buffer lives
/// for the whole call. The core checks the bytes are UTF-8 and JSON.
func readBody(_ pointer: CString?, _ name: String) throws -> Data {
    guard let pointer else { throw CoinfolioError(.invalidArgument, "\(name) is NULL") }
    return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: pointer), count: strlen(pointer), deallocator: .none)
}

/// Runs `body`, a decoding of the C-string argument `name`: bytes that are not UTF-8 are said of
/// that argument, as `readString` says them (`{"reason":"bad_utf8","input":name}`, the message
/// "\(name) is not valid UTF-8").
func namingBadUTF8<T>(_ name: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CoinfolioError where error.details[.reason] == .string(CoinfolioError.Reason.badUTF8.rawValue) {
        throw CoinfolioError.badUTF8(input: name)
    }
}

/// Runs a thunk body: clears the outputs, maps a thrown error to its status and error JSON.
func call(_ outError: OutString?, _ body: () throws -> Void) -> Int32 {
    outError?.pointee = nil
    do {
        try body()
        return CoinfolioError.Code.ok.rawValue
    } catch let error as CoinfolioError {
        outError?.pointee = newCString(error.json)
        return error.code.rawValue
    } catch {
        let wrapped = CoinfolioError(.internalError, "unexpected error: \(error)")
        outError?.pointee = newCString(wrapped.json)
        return wrapped.code.rawValue
    }
}

/// A NUL-terminated copy of UTF-8 bytes in malloc'd memory, released by `cf_string_free`.
func newCString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
    guard let memory = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
    bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress { memcpy(memory, base, raw.count) }
    }
    memory[bytes.count] = 0
    return memory
}

/// Runs a thunk body that produces a large JSON answer for `out_json`: malloc'd once at its exact
/// size and filled in one copy (no intermediate buffer of the answer's size).
func call(_ outJSON: OutString?, _ outError: OutString?, _ body: () throws -> JSONAnswer) -> Int32 {
    outJSON?.pointee = nil
    return call(outError) {
        guard let outJSON else { throw CoinfolioError(.invalidArgument, "out_json is NULL") }
        let answer = try body()
        guard let memory = malloc(answer.count + 1)?.assumingMemoryBound(to: CChar.self) else {
            throw CoinfolioError(.internalError, "out of memory")
        }
        answer.copyBytes(to: memory)
        memory[answer.count] = 0
        outJSON.pointee = memory
    }
}

/// Runs a thunk body that gives a large answer for `out_json` as its expected size and a writer:
/// the writer fills an `AnswerBuffer` in place, whose malloc'd memory becomes the caller's
/// string (no array of the answer's size, no copy).
func call(_ outJSON: OutString?, _ outError: OutString?, _ body: () throws -> (expected: Int, write: (AnswerBuffer) -> Void)) -> Int32 {
    outJSON?.pointee = nil
    return call(outError) {
        guard let outJSON else { throw CoinfolioError(.invalidArgument, "out_json is NULL") }
        let (expected, write) = try body()
        let answer = AnswerBuffer(expected: expected)
        write(answer)
        guard let text = answer.take() else { throw CoinfolioError(.internalError, "out of memory") }
        outJSON.pointee = text
    }
}

/// Runs a thunk body that produces JSON (UTF-8 bytes) for `out_json`, which is required.
func call(_ outJSON: OutString?, _ outError: OutString?, _ body: () throws -> [UInt8]) -> Int32 {
    outJSON?.pointee = nil
    return call(outError) {
        guard let outJSON else { throw CoinfolioError(.invalidArgument, "out_json is NULL") }
        let bytes = try body()
        guard let text = newCString(bytes) else { throw CoinfolioError(.internalError, "out of memory") }
        outJSON.pointee = text
    }
}

/// Opaque handles: a retained Swift object behind the C pointer.
func retainHandle(_ object: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

func handle<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type, _ name: String) throws -> T {
    guard let pointer else { throw CoinfolioError(.invalidArgument, "\(name) is NULL") }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

func releaseHandle<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) {
    guard let pointer else { return }
    Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

/// `cf_abi_version` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_abi_version")
public func cf_abi_version() -> Int32 { Coinfolio.abiVersion }

/// Made once (global initialization is thread-safe) and never written or freed afterwards, so
/// sharing it between threads is safe although a pointer type is not `Sendable`.
nonisolated(unsafe) private let versionString: UnsafeMutablePointer<CChar>? = strdup(Coinfolio.version)

/// `cf_version` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_version")
public func cf_version() -> CString? { UnsafePointer(versionString) }

/// `cf_string_free` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_string_free")
public func cf_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}
