// See CJSONScan.h.
#include "CJSONScan.h"

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
#endif
    for (; at < count; at++) {
        if (bytes[at] == '"' || bytes[at] == '\\') return at;
    }
    return count;
}
