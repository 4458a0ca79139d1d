import CommandLaunch
import FreshReader

/// The `fresh-reader` executable: everything lives in FreshReader.
@main
enum ReaderMain {
    static func main() async {
        await CommandLaunch.run(ReaderCommand.self)
    }
}
