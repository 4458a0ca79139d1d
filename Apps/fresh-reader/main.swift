// The `fresh-reader` executable: everything lives in FreshReader.
import CommandLaunch
import FreshReader

await CommandLaunch.run(ReaderCommand.self)
