import Foundation

/// What a path names, links followed (`stat(2)`): the one check behind refusing a device, pipe or
/// socket as a database file and telling a pipe to read with a limit from a regular file.
enum FileKind: Equatable {
    /// Nothing there (or nothing `stat` can reach).
    case missing
    /// A folder.
    case folder
    /// A regular file.
    case regular
    /// A device, pipe or socket.
    case special

    /// The kind of `path`.
    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        default: self = .special
        }
    }
}
