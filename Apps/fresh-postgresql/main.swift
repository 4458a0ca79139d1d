// The `fresh-postgresql` executable: `fresh` with the PostgreSQL client linked in. `fresh` runs
// it in its own place for a command that opens a PostgreSQL mirror (see PostgresClient).
import Composition
import FreshCLI
import PostgresStore

PostgresClient.current = .linked(open: PostgresMirror.open)
await FreshCommand.launch()
