// The `fresh` executable: everything lives in FreshCLI.
import FreshCLI

await FreshCommand.launch()
