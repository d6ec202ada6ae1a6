import XCTest

@testable import Coinfolio

/// SHA-256 against FIPS 180-4's examples and NIST's short-message vectors (the hex digests as
/// published there).
final class SHA256Tests: XCTestCase {
    func testFIPSExamples() {
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// A million 'a's (FIPS 180-2 appendix B.3), fed in uneven pieces.
    func testMillionAsInPieces() {
        var hasher = SHA256()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let count = min(piece, left)
            hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            left -= count
            piece = piece % 97 + 13
        }
        XCTAssertEqual(SHA256.hex(digest: hasher.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The same million 'a's fed from arrays and strings (bytes in memory, whole blocks hashed
    /// in place) in uneven pieces, mixed with pieces fed byte by byte.
    func testMillionAsInContiguousPieces() {
        var hasher = SHA256()
        var left = 1_000_000
        var piece = 1
        var turn = 0
        while left > 0 {
            let count = min(piece, left)
            switch turn % 3 {
            case 0: hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            case 1: hasher.update(String(repeating: "a", count: count).utf8)
            default: hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            }
            left -= count
            piece = piece % 331 + 13
            turn += 1
        }
        XCTAssertEqual(SHA256.hex(digest: hasher.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        XCTAssertEqual(SHA256.hex(digest: [0x00, 0x0F, 0xA0, 0xFF][1..<3]), "0fa0")
    }

    /// Lengths around the padding boundary (55, 56, 63, 64, 65, 119, 120 bytes of 'x'), as
    /// Python's hashlib gives them.
    func testPaddingBoundaries() {
        let expected = [
            55: "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072",
            56: "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e",
            63: "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2",
            64: "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c",
            65: "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9",
            119: "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c",
            120: "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98",
        ]
        for (count, digest) in expected {
            XCTAssertEqual(SHA256.hex(Array(repeating: UInt8(ascii: "x"), count: count)), digest, "\(count) bytes")
        }
    }

    /// `words(paddingInPlace:count:)` (the padding written after the message, every block hashed
    /// where it lies) against `update` + `finish` for every length 0…300, and a buffer too short
    /// for the padding (hashed through `update`).
    func testPaddingInPlace() {
        for count in 0...300 {
            let message = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var hasher = SHA256()
            hasher.update(message)
            let expected = hasher.finish()
            var buffer = message + [UInt8](repeating: 0xAA, count: SHA256.paddedCount(count) - count)
            XCTAssertEqual(buffer.count % 64, 0)
            let words = buffer.withUnsafeMutableBufferPointer { SHA256.words(paddingInPlace: $0, count: count) }
            XCTAssertEqual(SHA256.bytes(words), expected, "\(count) bytes")
            var short = message
            let shortWords = short.withUnsafeMutableBufferPointer { SHA256.words(paddingInPlace: $0, count: count) }
            XCTAssertEqual(SHA256.bytes(shortWords), expected, "\(count) bytes, no room for the padding")
        }
    }
}
