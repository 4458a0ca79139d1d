// See CCurl.h: libcurl through dlopen, resolved once.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/// The libcurl functions Fresh calls, resolved by `load`.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *handle);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *value);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_message[512];

/// Stores `symbol` of `library` in `*slot`; false (with the message set) when it is missing.
static int resolve(void *library, const char *symbol, void **slot) {
    *slot = dlsym(library, symbol);
    if (*slot) return 1;
    snprintf(load_message, sizeof load_message, "libcurl.so.4 has no %s", symbol);
    load_failure = load_message;
    return 0;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_message, sizeof load_message, "%s", reason ? reason : "cannot load libcurl.so.4");
        load_failure = load_message;
        return;
    }
    if (!(resolve(library, "curl_global_init", (void **)&curl.global_init)
          && resolve(library, "curl_easy_init", (void **)&curl.easy_init)
          && resolve(library, "curl_easy_reset", (void **)&curl.easy_reset)
          && resolve(library, "curl_easy_cleanup", (void **)&curl.easy_cleanup)
          && resolve(library, "curl_easy_perform", (void **)&curl.easy_perform)
          && resolve(library, "curl_easy_strerror", (void **)&curl.easy_strerror)
          && resolve(library, "curl_easy_setopt", (void **)&curl.easy_setopt)
          && resolve(library, "curl_easy_getinfo", (void **)&curl.easy_getinfo)
          && resolve(library, "curl_slist_append", (void **)&curl.slist_append)
          && resolve(library, "curl_slist_free_all", (void **)&curl.slist_free_all)
          && resolve(library, "curl_multi_init", (void **)&curl.multi_init)
          && resolve(library, "curl_multi_cleanup", (void **)&curl.multi_cleanup)
          && resolve(library, "curl_multi_add_handle", (void **)&curl.multi_add_handle)
          && resolve(library, "curl_multi_remove_handle", (void **)&curl.multi_remove_handle)
          && resolve(library, "curl_multi_perform", (void **)&curl.multi_perform)
          && resolve(library, "curl_multi_poll", (void **)&curl.multi_poll)
          && resolve(library, "curl_multi_wakeup", (void **)&curl.multi_wakeup)
          && resolve(library, "curl_multi_info_read", (void **)&curl.multi_info_read))) {
        return;
    }
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_message, sizeof load_message, "curl_global_init failed: %s", curl.easy_strerror(code));
        load_failure = load_message;
    }
}

const char *fresh_curl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

CURL *fresh_curl_easy_init(void) { return curl.easy_init(); }
void fresh_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
void fresh_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode fresh_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *fresh_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

struct curl_slist *fresh_curl_slist_append(struct curl_slist *list, const char *value) {
    return curl.slist_append(list, value);
}

void fresh_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode fresh_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode fresh_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode fresh_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode fresh_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode fresh_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

CURLcode fresh_curl_set_write_callback(CURL *handle, fresh_curl_data_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode fresh_curl_set_header_callback(CURL *handle, fresh_curl_data_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode fresh_curl_set_progress_callback(CURL *handle, fresh_curl_progress_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode fresh_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode fresh_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLM *fresh_curl_multi_init(void) { return curl.multi_init(); }
void fresh_curl_multi_cleanup(CURLM *multi) { curl.multi_cleanup(multi); }
CURLMcode fresh_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode fresh_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode fresh_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode fresh_curl_multi_poll(CURLM *multi, int timeout_ms) { return curl.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode fresh_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }

int fresh_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &left))) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
