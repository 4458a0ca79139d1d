/// Seeded prose that mixes Korean (Hangul) and English, sometimes long, sometimes with emoji,
/// so clients have to measure text by display cells and cope with multi-byte UTF-8.
struct TextGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        self.random = SplitMix64(seed: seed)
    }

    // MARK: Building blocks

    private static let koreanPhrases = [
        "오늘의 캐시 이야기", "서버가 304를 보냈습니다", "오프라인에서도 잘 보입니다", "커서 페이지네이션 정리",
        "느린 네트워크에서 살아남기", "새로고침은 백그라운드에서", "데이터베이스는 진실의 원천", "엔티티 태그를 아시나요",
        "한 번 받은 것은 다시 받지 않기", "서울의 아침 동기화", "무한 스크롤과 미리 가져오기", "검증자와 신선도",
    ]
    private static let englishPhrases = [
        "notes on HTTP caching", "why the ETag matters", "offline first, always", "cursor pagination in practice",
        "surviving a flaky network", "refresh in the background", "the local database is the truth",
        "max-age and friends", "a 304 costs almost nothing", "prefetch before the end", "revalidate, don't refetch",
        "a quiet morning sync",
    ]
    private static let koreanSentences = [
        "클라이언트는 저장된 응답을 먼저 보여 주고 뒤에서 새로 고칩니다.",
        "조건부 요청은 바뀐 것이 없으면 본문 없이 304를 돌려받습니다.",
        "커서는 불투명한 값이므로 그대로 다시 보내면 됩니다.",
        "네트워크가 끊겨도 이미 동기화한 글은 계속 읽을 수 있어요.",
        "한글은 화면에서 두 칸을 차지하니 글자 수로 폭을 재면 안 됩니다.",
        "마지막 페이지의 다음 커서는 0입니다.",
        "서버는 같은 내용에 항상 같은 ETag를 붙입니다.",
    ]
    private static let englishSentences = [
        "The client shows what it has stored at once and refreshes in the background.",
        "A conditional request gets a 304 with no body when nothing changed.",
        "Cursors are opaque, so clients pass them back verbatim.",
        "Synced posts stay readable when the network goes away.",
        "Wide characters take two cells, so never measure width by character count.",
        "The last page carries a next cursor of zero.",
        "Equal content always gets an equal entity tag.",
        "Freshness comes from max-age; validation comes from ETag and Last-Modified.",
    ]
    private static let emoji = ["🚀", "📦", "✅", "🔁", "🌧️", "☕️", "🇰🇷", "💾", "🧭", "✨", "👩‍💻", "🐢"]
    private static let names = [
        "김민준", "이서연", "박지호", "최유나", "정하늘", "Alice Kim", "Bob Lee", "Carol Park", "Dan Choi", "Eve Jung",
    ]

    // MARK: Generated text

    /// A one-line headline: Korean, English or both, sometimes with an emoji.
    mutating func title() -> String {
        var title: String
        switch random.next(below: 3) {
        case 0: title = random.pick(Self.koreanPhrases)
        case 1:
            let phrase = random.pick(Self.englishPhrases)
            title = phrase.prefix(1).uppercased() + phrase.dropFirst()
        default: title = random.pick(Self.koreanPhrases) + " — " + random.pick(Self.englishPhrases)
        }
        if random.next(below: 4) == 0 { title += " " + random.pick(Self.emoji) }
        return title
    }

    /// One to four paragraphs of mixed sentences; about one body in eight is long (20+ sentences).
    mutating func body() -> String {
        let isLong = random.next(below: 8) == 0
        let paragraphCount = isLong ? 4 : 1 + random.next(below: 2)
        let sentencesPerParagraph = isLong ? 6 : 1 + random.next(below: 3)
        return (0..<paragraphCount).map { _ in paragraph(sentences: sentencesPerParagraph) }.joined(separator: "\n\n")
    }

    /// `sentences` mixed Korean and English sentences, sometimes followed by an emoji.
    mutating func paragraph(sentences: Int) -> String {
        (0..<sentences).map { _ in
            var sentence = random.next(below: 2) == 0
                ? random.pick(Self.koreanSentences) : random.pick(Self.englishSentences)
            if random.next(below: 6) == 0 { sentence += " " + random.pick(Self.emoji) }
            return sentence
        }.joined(separator: " ")
    }

    /// A display name, Korean or English.
    mutating func author() -> String {
        random.pick(Self.names)
    }

    /// A value in `0..<bound`, drawn from the same sequence as the text.
    mutating func number(below bound: Int) -> Int {
        random.next(below: bound)
    }

    /// One element of `elements`, drawn from the same sequence as the text.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        random.pick(elements)
    }
}
