import Foundation

/// The one rule for the files Coinfolio makes for a person — a portfolio database, and the CLI's
/// exported ledger CSV and chart SVG: readable and writable by the owner only (0600) from the first
/// moment, whatever the umask, with no process-wide umask change. A file that already exists keeps
/// the mode its owner gave it. A symbolic link is followed, as SQLite and a shell's `>` follow it:
/// when it dangles, its target is created the same way (0600), never with the umask's 0644.
@_spi(Files) public enum OwnerOnlyFile {
    /// The mode of a file Coinfolio creates: owner read and write only.
    public static let mode: mode_t = 0o600

    /// Creates `path` empty with `mode` when nothing is there, following symbolic links (at most
    /// 40) to a target that does not exist yet.
    /// - Returns: the new file, open for writing, when this call created it; nil when the file
    ///   exists (it is never opened: closing a second descriptor of an SQLite database would drop
    ///   this process's locks on it) or cannot be created (`errno` says why).
    public static func create(_ path: String) -> Int32? {
        var target = path
        for _ in 0..<40 {
            let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
            if fd >= 0 {
                // A umask such as 0277 would have removed the owner's write bit: set it exactly.
                _ = fchmod(fd, mode)
                return fd
            }
            guard errno == EEXIST, let next = linkTarget(target) else { return nil }
            target = next
        }
        return nil
    }

    /// `path` open for writing from its start: created as `create` says, or an existing file
    /// truncated (its mode kept).
    /// - Throws: `.invalidArgument` naming the path and the system's reason when it cannot be opened.
    public static func openForWriting(_ path: String) throws -> FileHandle {
        if let fd = create(path) { return FileHandle(fileDescriptor: fd, closeOnDealloc: true) }
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else {
            throw CoinfolioError(.invalidArgument, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Where the symbolic link at `path` points (a relative target read from the link's folder);
    /// nil when `path` is not a symbolic link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? target : folder + "/" + target
    }
}
