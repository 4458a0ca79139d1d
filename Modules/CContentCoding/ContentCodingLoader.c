// See CContentCoding.h: libdeflate, brotli and zstd through dlopen, each resolved once.
#include "CContentCoding.h"

#include <brotli/decode.h>
#include <dlfcn.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <zstd.h>

/// The functions used of each library (typed by its own header); a library that did not load
/// leaves its pointers NULL.
static struct {
    __typeof__(libdeflate_alloc_decompressor) *alloc_decompressor;
    __typeof__(libdeflate_free_decompressor) *free_decompressor;
    __typeof__(libdeflate_gzip_decompress_ex) *gzip_decompress;
    __typeof__(libdeflate_zlib_decompress_ex) *zlib_decompress;
    __typeof__(libdeflate_deflate_decompress_ex) *deflate_decompress;
} deflate;

static struct {
    __typeof__(BrotliDecoderCreateInstance) *create;
    __typeof__(BrotliDecoderDecompressStream) *decompress;
    __typeof__(BrotliDecoderDestroyInstance) *destroy;
} brotli;

static struct {
    __typeof__(ZSTD_createDStream) *create;
    __typeof__(ZSTD_decompressStream) *decompress;
    __typeof__(ZSTD_freeDStream) *free;
    __typeof__(ZSTD_isError) *is_error;
} zstd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/// Resolves `count` symbols of `file` into `slots`; on any failure every slot stays NULL.
static void resolve(const char *file, const char *const *symbols, void **slots, int count) {
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    for (int index = 0; index < count; index++) {
        slots[index] = dlsym(library, symbols[index]);
        if (!slots[index]) {
            for (int reset = 0; reset < count; reset++) slots[reset] = NULL;
            return;
        }
    }
}

static void load(void) {
    static const char *const deflate_symbols[] = {
        "libdeflate_alloc_decompressor", "libdeflate_free_decompressor", "libdeflate_gzip_decompress_ex",
        "libdeflate_zlib_decompress_ex", "libdeflate_deflate_decompress_ex"};
    static const char *const brotli_symbols[] = {
        "BrotliDecoderCreateInstance", "BrotliDecoderDecompressStream", "BrotliDecoderDestroyInstance"};
    static const char *const zstd_symbols[] = {"ZSTD_createDStream", "ZSTD_decompressStream", "ZSTD_freeDStream", "ZSTD_isError"};
    resolve("libdeflate.so.0", deflate_symbols, (void **)&deflate, 5);
    resolve("libbrotlidec.so.1", brotli_symbols, (void **)&brotli, 3);
    resolve("libzstd.so.1", zstd_symbols, (void **)&zstd, 4);
}

int fresh_coding_available(fresh_coding coding) {
    pthread_once(&load_once, load);
    switch (coding) {
    case FRESH_CODING_GZIP:
    case FRESH_CODING_DEFLATE: return deflate.alloc_decompressor != NULL;
    case FRESH_CODING_BR: return brotli.create != NULL;
    case FRESH_CODING_ZSTD: return zstd.create != NULL;
    }
    return 0;
}

// MARK: - The output

/// The decoded bytes so far, in a buffer that grows up to the limit.
struct output {
    unsigned char *bytes;
    size_t size, capacity, limit;
};

static fresh_decode_result reserve(struct output *out, size_t capacity) {
    if (capacity > out->limit) capacity = out->limit;
    if (capacity == 0) capacity = 1;
    unsigned char *bytes = realloc(out->bytes, capacity);
    if (!bytes) return FRESH_DECODE_NO_MEMORY;
    out->bytes = bytes;
    out->capacity = capacity;
    return FRESH_DECODED;
}

/// Doubles the room for the decoded bytes; FRESH_DECODE_TOO_LARGE once it is at the limit.
static fresh_decode_result grow(struct output *out) {
    if (out->capacity >= out->limit) return FRESH_DECODE_TOO_LARGE;
    size_t doubled = out->capacity > SIZE_MAX / 2 ? SIZE_MAX : out->capacity * 2;
    return reserve(out, doubled);
}

/// DEFLATE's largest ratio is about 1032 to 1: a body claiming more decoded bytes than that lies.
static size_t most_decoded(size_t encoded) { return encoded > SIZE_MAX / 1032 ? SIZE_MAX : encoded * 1032; }

// MARK: - gzip and deflate (libdeflate: a whole member at once)

typedef enum libdeflate_result (*whole_decoder)(struct libdeflate_decompressor *, const void *, size_t, void *, size_t,
                                                 size_t *, size_t *);

/// Decodes one whole stream of `decoder` from `input` onto `out`, with more room each time the
/// room was too small; `*consumed` is the input it took.
static fresh_decode_result decode_whole(whole_decoder decoder, struct libdeflate_decompressor *decompressor,
                                        const unsigned char *input, size_t size, struct output *out, size_t *consumed) {
    for (;;) {
        size_t produced = 0;
        enum libdeflate_result result = decoder(decompressor, input, size, out->bytes + out->size,
                                                out->capacity - out->size, consumed, &produced);
        if (result == LIBDEFLATE_SUCCESS) {
            out->size += produced;
            return FRESH_DECODED;
        }
        if (result != LIBDEFLATE_INSUFFICIENT_SPACE) return FRESH_DECODE_INVALID;
        fresh_decode_result grown = grow(out);
        if (grown != FRESH_DECODED) return grown;
    }
}

/// gzip (RFC 1952): one member or several in a row. A member's last four bytes state its
/// decoded size (modulo 2^32), which sizes the buffer of a body of one member exactly.
static fresh_decode_result decode_gzip(const unsigned char *input, size_t size, struct output *out) {
    if (size < 18) return FRESH_DECODE_INVALID;
    size_t stated = (size_t)input[size - 4] | (size_t)input[size - 3] << 8 | (size_t)input[size - 2] << 16
                    | (size_t)input[size - 1] << 24;
    fresh_decode_result result = reserve(out, stated <= most_decoded(size) ? stated : 4 * size);
    if (result != FRESH_DECODED) return result;
    struct libdeflate_decompressor *decompressor = deflate.alloc_decompressor();
    if (!decompressor) return FRESH_DECODE_NO_MEMORY;
    size_t offset = 0;
    while (result == FRESH_DECODED && offset < size) {
        size_t consumed = 0;
        result = decode_whole(deflate.gzip_decompress, decompressor, input + offset, size - offset, out, &consumed);
        offset += consumed;
    }
    deflate.free_decompressor(decompressor);
    return result;
}

/// deflate as HTTP names it: the zlib format (RFC 1950); some servers send raw DEFLATE (RFC
/// 1951) under that name, which is tried when the zlib format does not decode, as libcurl does,
/// with up to 4 bytes after it (libcurl lets a checksum some servers append pass).
static fresh_decode_result decode_deflate(const unsigned char *input, size_t size, struct output *out) {
    fresh_decode_result result = reserve(out, 4 * size);
    if (result != FRESH_DECODED) return result;
    struct libdeflate_decompressor *decompressor = deflate.alloc_decompressor();
    if (!decompressor) return FRESH_DECODE_NO_MEMORY;
    size_t consumed = 0, trailer = 0;
    result = decode_whole(deflate.zlib_decompress, decompressor, input, size, out, &consumed);
    if (result == FRESH_DECODE_INVALID) {
        out->size = 0;
        trailer = 4;
        result = decode_whole(deflate.deflate_decompress, decompressor, input, size, out, &consumed);
    }
    if (result == FRESH_DECODED && size - consumed > trailer) result = FRESH_DECODE_INVALID;
    deflate.free_decompressor(decompressor);
    return result;
}

// MARK: - br and zstd (streamed into the growing buffer)

static fresh_decode_result decode_brotli(const unsigned char *input, size_t size, struct output *out) {
    fresh_decode_result result = reserve(out, 4 * size);
    if (result != FRESH_DECODED) return result;
    BrotliDecoderState *state = brotli.create(NULL, NULL, NULL);
    if (!state) return FRESH_DECODE_NO_MEMORY;
    const uint8_t *next_in = input;
    size_t available_in = size;
    for (;;) {
        uint8_t *next_out = out->bytes + out->size;
        size_t available_out = out->capacity - out->size;
        BrotliDecoderResult step = brotli.decompress(state, &available_in, &next_in, &available_out, &next_out, NULL);
        out->size = (size_t)(next_out - out->bytes);
        if (step == BROTLI_DECODER_RESULT_SUCCESS) {
            result = available_in == 0 ? FRESH_DECODED : FRESH_DECODE_INVALID;
            break;
        }
        if (step != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
            // An error, or the stream needs more input than the body has: cut short.
            result = FRESH_DECODE_INVALID;
            break;
        }
        result = grow(out);
        if (result != FRESH_DECODED) break;
    }
    brotli.destroy(state);
    return result;
}

/// zstd (RFC 8878): one frame or several in a row.
static fresh_decode_result decode_zstd(const unsigned char *input, size_t size, struct output *out) {
    fresh_decode_result result = reserve(out, 4 * size);
    if (result != FRESH_DECODED) return result;
    ZSTD_DStream *stream = zstd.create();
    if (!stream) return FRESH_DECODE_NO_MEMORY;
    ZSTD_inBuffer in = {input, size, 0};
    for (;;) {
        if (out->size == out->capacity) {
            result = grow(out);
            if (result != FRESH_DECODED) break;
        }
        ZSTD_outBuffer room = {out->bytes, out->capacity, out->size};
        size_t hint = zstd.decompress(stream, &room, &in);
        out->size = room.pos;
        if (zstd.is_error(hint)) {
            result = FRESH_DECODE_INVALID;
            break;
        }
        // 0: a frame ended. Done when no input is left; else the next frame follows.
        if (hint == 0 && in.pos == in.size) break;
        // The input is used up inside a frame, and the output had room: the body is cut short.
        if (in.pos == in.size && room.pos < room.size) {
            result = FRESH_DECODE_INVALID;
            break;
        }
    }
    zstd.free(stream);
    return result;
}

fresh_decode_result fresh_decode(fresh_coding coding, const void *input, size_t input_size, size_t limit,
                                 void **output, size_t *output_size) {
    if (!fresh_coding_available(coding)) return FRESH_DECODE_UNAVAILABLE;
    struct output out = {NULL, 0, 0, limit};
    fresh_decode_result result = FRESH_DECODE_INVALID;
    switch (coding) {
    case FRESH_CODING_GZIP: result = decode_gzip(input, input_size, &out); break;
    case FRESH_CODING_DEFLATE: result = decode_deflate(input, input_size, &out); break;
    case FRESH_CODING_BR: result = decode_brotli(input, input_size, &out); break;
    case FRESH_CODING_ZSTD: result = decode_zstd(input, input_size, &out); break;
    }
    if (result != FRESH_DECODED) {
        free(out.bytes);
        return result;
    }
    *output = out.bytes;
    *output_size = out.size;
    return FRESH_DECODED;
}
