// MARK: - Trimming header values

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
