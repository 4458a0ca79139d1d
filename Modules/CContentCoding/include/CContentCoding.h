// Decoders for the content codings of HTTP bodies (RFC 9110 §8.4.1), loaded when the first
// request that may receive one is set up rather than when the program starts, as libcurl is
// (see CCurl.h): a run the cache answers loads neither.
//
// gzip and deflate go through libdeflate, which decodes a whole body at once about twice as
// fast as zlib does (the library libcurl decodes with, a piece at a time as it arrives); br and
// zstd go through the libraries libcurl itself uses for them. The headers supply the types;
// nothing here links the libraries.
#ifndef FRESH_CCONTENTCODING_H
#define FRESH_CCONTENTCODING_H

#include <stddef.h>

/// A content coding these functions decode.
typedef enum {
    FRESH_CODING_GZIP,
    FRESH_CODING_DEFLATE,
    FRESH_CODING_BR,
    FRESH_CODING_ZSTD,
} fresh_coding;

/// How a decoding ended.
typedef enum {
    FRESH_DECODED = 0,
    /// The bytes are not that coding, or they stop short of its end.
    FRESH_DECODE_INVALID,
    /// The decoded body would be longer than the limit.
    FRESH_DECODE_TOO_LARGE,
    /// The coding's library could not be loaded.
    FRESH_DECODE_UNAVAILABLE,
    FRESH_DECODE_NO_MEMORY,
} fresh_decode_result;

/// Whether `coding` can be decoded here: its library loads (tried once per process).
int fresh_coding_available(fresh_coding coding);

/// Decodes `input` (`input_size` bytes of `coding`) into a buffer from malloc, which the caller
/// frees: `*output` and `*output_size` are set when the result is FRESH_DECODED. At most
/// `limit` bytes are produced (SIZE_MAX: no limit).
fresh_decode_result fresh_decode(fresh_coding coding, const void *input, size_t input_size, size_t limit,
                                 void **output, size_t *output_size);

#endif
