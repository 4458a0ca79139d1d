/// URLs as `fresh` prints them: a password in the user-info part (`https://me:secret@host/`)
/// is shown as `***`, so listing the cache does not put it on the screen.
enum RedactedPassword {
    /// `text` with the password of every URL in it replaced by `***`.
    static func hidden(in text: String) -> String {
        text.replacing(/(?<prefix>[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^\/?#@:\s]*):[^\/?#@\s]*@/) { "\($0.prefix):***@" }
    }
}
