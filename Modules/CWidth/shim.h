// The C library's character-width and locale functions for Swift. SwiftPM drops
// -D_XOPEN_SOURCE, which glibc needs to declare wcwidth, so it is switched on here.
#ifndef FRESH_CWIDTH_SHIM_H
#define FRESH_CWIDTH_SHIM_H

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include <langinfo.h>
#include <locale.h>
#include <wchar.h>

static inline int fresh_wcwidth(wchar_t c) { return wcwidth(c); }
static inline int fresh_set_locale(void) { return setlocale(LC_ALL, "") != NULL; }

#endif
