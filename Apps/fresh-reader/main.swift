// The `fresh-reader` executable: everything lives in FreshReader; it reads PostgreSQL mirrors itself.
import CommandLaunch
import Composition
import FreshReader
import PostgresStore

PostgresClient.current = .linked(open: PostgresMirror.open)
await CommandLaunch.run(ReaderCommand.self)
