// libcurl, loaded when the first request needs it rather than when the program starts.
//
// A program linked against libcurl pays for loading it and the thirty-odd libraries it
// depends on (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, ...) before main runs: several
// milliseconds, more than everything else a cache hit costs. So nothing here links libcurl:
// `fresh_curl_load` opens libcurl.so.4 with dlopen the first time a transfer needs it (or
// earlier, on a thread of its own, when `fresh sync` asks to preload it), and
// the functions below call through the pointers it resolved. curl.h still supplies the
// types and constants.
//
// The setopt / getinfo wrappers are typed because Swift cannot call libcurl's variadic
// curl_easy_setopt / curl_easy_getinfo.
#ifndef FRESH_CCURL_H
#define FRESH_CCURL_H

#include <curl/curl.h>

/// Loads libcurl and runs `curl_global_init` once per process, from whichever thread asks
/// first. Returns NULL when libcurl is ready, else why it is not (the dynamic loader's
/// message); every other function here may be called only after a NULL.
const char *fresh_curl_load(void);

CURL *fresh_curl_easy_init(void);
void fresh_curl_easy_reset(CURL *handle);
void fresh_curl_easy_cleanup(CURL *handle);
CURLcode fresh_curl_easy_perform(CURL *handle);
const char *fresh_curl_easy_strerror(CURLcode code);
struct curl_slist *fresh_curl_slist_append(struct curl_slist *list, const char *value);
void fresh_curl_slist_free_all(struct curl_slist *list);

typedef size_t (*fresh_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*fresh_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                             curl_off_t ultotal, curl_off_t ulnow);

CURLcode fresh_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode fresh_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode fresh_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode fresh_curl_set_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode fresh_curl_set_headers(CURL *handle, struct curl_slist *headers);
CURLcode fresh_curl_set_write_callback(CURL *handle, fresh_curl_data_callback callback);
CURLcode fresh_curl_set_header_callback(CURL *handle, fresh_curl_data_callback callback);
CURLcode fresh_curl_set_progress_callback(CURL *handle, fresh_curl_progress_callback callback);
CURLcode fresh_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode fresh_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value);

// The multi interface: many transfers driven from one thread without blocking it.
CURLM *fresh_curl_multi_init(void);
void fresh_curl_multi_cleanup(CURLM *multi);
CURLMcode fresh_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode fresh_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode fresh_curl_multi_perform(CURLM *multi, int *running);
CURLMcode fresh_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode fresh_curl_multi_wakeup(CURLM *multi);
/// The next transfer that finished, with its result: 1 and the two set, or 0 when none is left.
int fresh_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

#endif
