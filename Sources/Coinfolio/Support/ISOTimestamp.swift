import Foundation

/// ISO-8601 UTC with seconds: "2026-11-30T03:35:45Z".
func isoTimestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
}
