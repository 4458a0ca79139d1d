/// URLs as `fresh` prints them: a password in the user-info part (`https://me:secret@host/`)
/// is shown as `***`, and an http(s) user without one too (it may be a token,
/// `https://TOKEN@host/`; a PostgreSQL user is a role, and stays), so listing the cache or a
/// line on stderr (logs, a terminal's scrollback) does not put it on the screen: an argument
/// refused on the command line too.
public enum RedactedPassword {
    /// `text` with the password of every URL in it, and every http(s) URL's lone user, replaced by `***`.
    public static func hidden(in text: String) -> String {
        text.replacing(/(?<prefix>[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^\/?#@:\s]*):[^\/?#@\s]*@/) { "\($0.prefix):***@" }
            .replacing(/(?<start>[Hh][Tt][Tt][Pp][Ss]?:\/\/)[^\/?#@:\s]+@/) { "\($0.start)***@" }
    }
}
