// CJSONScan: the one loop of reading JSON that C does faster than Swift here, sixteen bytes at a
// time (SSE2): a skimming read moving through a string to its end (Modules/JSON/JSONParser.swift,
// `skipString`). Without SSE2 (not x86-64), eight bytes at a time.
#ifndef CJSONSCAN_H
#define CJSONSCAN_H

#include <stddef.h>
#include <stdint.h>

/// How many of the `count` bytes at `bytes` come before the first quote or backslash
/// (`count` when there is neither).
size_t fresh_json_span_to_quote_or_backslash(const uint8_t *bytes, size_t count);

#endif
