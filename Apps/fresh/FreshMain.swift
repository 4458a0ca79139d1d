import FreshCLI

/// The `fresh` executable: everything lives in FreshCLI.
@main
enum FreshMain {
    static func main() async {
        await FreshCommand.main()
    }
}
