// See CJSONScan.h.
#include "CJSONScan.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t fresh_json_span_to_quote_or_backslash(const uint8_t *bytes, size_t count) {
    size_t at = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    for (; at + 16 <= count; at += 16) {
        const __m128i block = _mm_loadu_si128((const __m128i *)(bytes + at));
        const int found = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
        if (found != 0) return at + (size_t)__builtin_ctz((unsigned)found);
    }
#else
    // Eight bytes at a time: a byte of `word ^ pattern` is zero where it matches, and subtracting
    // one from each byte borrows into a zero byte's high bit.
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    for (; at + 8 <= count; at += 8) {
        uint64_t word;
        memcpy(&word, bytes + at, 8);
        const uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
        if ((((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)) & high) break;
    }
#endif
    for (; at < count; at++) {
        if (bytes[at] == '"' || bytes[at] == '\\') return at;
    }
    return count;
}
