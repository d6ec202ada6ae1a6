import Foundation

/// Files the CLI makes for the user: owner-only, whatever the umask.
enum PrivateFiles {
    /// Creates `folder` and any missing parent as 0700 (owner only), as ssh and GnuPG do for
    /// theirs. A folder that already exists keeps the mode its owner gave it.
    /// - Throws: a message when a missing folder cannot be made.
    static func createFolder(_ folder: String) throws {
        var info = stat()
        if folder.isEmpty || stat(folder, &info) == 0 { return }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder { try createFolder(parent) }
        if mkdir(folder, 0o700) != 0 {
            let code = errno
            if code == EEXIST { return }
            throw Options.UsageError(message: "cannot create the folder \(folder): \(String(cString: strerror(code)))")
        }
        // mkdir's mode passes through the umask; make it exactly 0700 (never wider than that).
        _ = chmod(folder, 0o700)
    }

    /// The first line of a key file, trimmed, and a warning when others may read the file.
    /// - Returns: the key, and a one-line warning (or nil) for stderr.
    /// - Throws: a message when the file cannot be read or its first line is empty.
    static func readKeyFile(_ path: String) throws -> (key: String, warning: String?) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Options.UsageError(message: "cannot read the API key file \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let key = firstLine.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw Options.UsageError(message: "the API key file \(path) has no key on its first line") }
        var info = stat()
        var warning: String?
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            warning = "warning: the API key file \(path) is readable by others (mode \(mode)); run chmod 600 \(path)"
        }
        return (key, warning)
    }
}
