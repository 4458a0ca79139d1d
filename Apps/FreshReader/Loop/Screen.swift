import CNcursesw
import Glibc
import TerminalText

/// The terminal through ncursesw: started in cbreak mode without echo, keypad keys decoded,
/// cursor hidden, key reads that give up after ``pollMilliseconds`` or as soon as `wake` is set
/// (a message reached the mailbox). Only the UI thread touches it, and ``stop()`` restores the
/// terminal on every way out.
final class Screen: TerminalScreen {
    /// How long a key read waits, with no message posted, before the loop looks again (for
    /// another process's writes, and to time messages out).
    static let pollMilliseconds: Int32 = 100
    /// How long ncurses waits after Esc for the rest of an escape sequence.
    static let escapeDelayMilliseconds: Int32 = 25

    private let window: UnsafeMutablePointer<WINDOW>
    private let wake: WakeSignal
    private var stopped = false
    private(set) var inputClosed = false

    private init(window: UnsafeMutablePointer<WINDOW>, wake: WakeSignal) {
        self.window = window
        self.wake = wake
    }

    /// Starts the terminal UI on standard input and output, after ``TerminalLocale/activate()``;
    /// a key read also ends when `wake` is set.
    static func start(wake: WakeSignal) throws(ReaderError) -> Screen {
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r") else {
            throw .terminal("cannot open the terminal: \(String(cString: strerror(errno)))")
        }
        guard newterm(nil, output, input) != nil, let window = fresh_stdscr() else {
            let name = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw .terminal("cannot start the terminal UI for TERM=\(name)")
        }
        _ = cbreak()
        _ = noecho()
        _ = keypad(window, true)
        _ = curs_set(0)
        _ = set_escdelay(escapeDelayMilliseconds)
        // Reads never block in ncurses: the wait is a poll() of the terminal and `wake` (readInput).
        wtimeout(window, 0)
        return Screen(window: window, wake: wake)
    }

    deinit { stop() }

    /// Ends the terminal UI (endwin), the screen, modes and cursor as before; safe to call twice.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = endwin()
    }

    // MARK: TerminalScreen

    var size: ScreenSize {
        var rows: Int32 = 0, columns: Int32 = 0
        fresh_getmaxyx(window, &rows, &columns)
        return ScreenSize(rows: Int(rows), columns: Int(columns))
    }

    func draw(_ lines: [ScreenLine]) {
        _ = werase(window)
        for (row, line) in lines.enumerated() {
            _ = wattrset(window, Self.attributes(line.style))
            var characters = line.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
            // Writing the bottom-right cell reports ERR (the cursor cannot move on); the text is drawn.
            _ = mvwaddwstr(window, Int32(row), 0, &characters)
            if !line.highlights.isEmpty { highlight(line, row: Int32(row)) }
        }
        _ = wattrset(window, 0)
        _ = wrefresh(window)
    }

    /// Draws the highlighted stretches of `line` again, bold and underlined over its style
    /// (reversed over a selected row, so it still shows there).
    private func highlight(_ line: ScreenLine, row: Int32) {
        let scalars = Array(line.text.unicodeScalars)
        let measure = DisplayWidth.system
        for range in line.highlights where range.upperBound <= scalars.count {
            let column = scalars[..<range.lowerBound].reduce(0) { $0 + max(0, measure.cells(String($1))) }
            var characters = scalars[range].map { wchar_t(bitPattern: $0.value) } + [0]
            _ = wattrset(window, (Self.attributes(line.style) ^ fresh_a_reverse()) | fresh_a_bold())
            _ = mvwaddwstr(window, row, Int32(column), &characters)
        }
        _ = wattrset(window, 0)
    }

    func readInput() -> KeyInput? {
        // A key ncurses or the terminal already holds comes first (the rest of a burst of keys).
        if let key = nextKey() { return key }
        var waits = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
        _ = poll(&waits, nfds_t(waits.count), Self.pollMilliseconds)
        if waits[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            inputClosed = true
            return nil
        }
        if waits[1].revents != 0 { wake.clear() }
        return waits[0].revents != 0 ? nextKey() : nil
    }

    /// The next key if one has arrived, without waiting (but for the rest of an escape sequence).
    private func nextKey() -> KeyInput? {
        var code: wint_t = 0
        errno = 0
        let kind = wget_wch(window, &code)
        if kind == fresh_key_code_yes() { return Self.specialKeys[Int32(code)] }
        guard kind == fresh_ok() else {
            // No key yet, or none ever: a terminal that fails to be read says EIO.
            if errno == EIO { inputClosed = true }
            return nil
        }
        switch code {
        case 1...26 where code != 9 && code != 10 && code != 13: return .control(Character(Unicode.Scalar(UInt8(code) + 96)))
        case 127, 8: return .backspace
        default:
            if let special = Self.specialKeys[Int32(code)] { return special }
            guard let scalar = Unicode.Scalar(UInt32(code)), scalar.properties.generalCategory != .control else { return nil }
            return .character(Character(scalar))
        }
    }

    // MARK: Translation

    private static let specialKeys: [Int32: KeyInput] = [
        fresh_key_up(): .up, fresh_key_down(): .down,
        fresh_key_ppage(): .pageUp, fresh_key_npage(): .pageDown,
        fresh_key_home(): .home, fresh_key_end(): .end,
        fresh_key_enter(): .enter, 10: .enter, 13: .enter,
        27: .escape, fresh_key_resize(): .resize, fresh_key_backspace(): .backspace,
    ]

    private static func attributes(_ style: ScreenLine.Style) -> Int32 {
        switch style {
        case .plain: 0
        case .heading: fresh_a_bold()
        case .selected, .status: fresh_a_reverse()
        case .dim: fresh_a_dim()
        }
    }
}
