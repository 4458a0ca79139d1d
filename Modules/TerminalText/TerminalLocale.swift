import CWidth
import Glibc

/// The locale the reader draws in. ncursesw and `wcwidth` only know that a Hangul
/// syllable is two cells wide under a UTF-8 `LC_CTYPE`, so a user whose locale is not
/// UTF-8 (or unset, as in a bare `tmux` or `ssh` session) still gets one for character types.
public enum TerminalLocale {
    /// Adopts the user's locale, then `C.UTF-8` for character types if that is not UTF-8.
    /// Call once, before the terminal starts and before any text is measured.
    /// - Returns: whether character types are UTF-8 now.
    @discardableResult
    public static func activate() -> Bool {
        _ = fresh_set_locale()
        if isUTF8 { return true }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        return isUTF8
    }

    /// Whether the current `LC_CTYPE` encodes text as UTF-8.
    public static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        return String(cString: codeset).uppercased().filter { $0 != "-" } == "UTF8"
    }
}
