// ncursesw for Swift. SwiftPM drops pkg-config's -D_XOPEN_SOURCE, so the wide-character API is
// switched on here, and the macros Swift cannot import are wrapped in inline functions.
#ifndef FRESH_CNCURSESW_SHIM_H
#define FRESH_CNCURSESW_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *fresh_stdscr(void) { return stdscr; }
static inline int fresh_lines(void) { return LINES; }
static inline int fresh_cols(void) { return COLS; }
static inline void fresh_getmaxyx(WINDOW *window, int *rows, int *cols) {
    int y, x;
    getmaxyx(window, y, x);
    *rows = y;
    *cols = x;
}
static inline int fresh_a_reverse(void) { return (int)A_REVERSE; }
static inline int fresh_a_bold(void) { return (int)A_BOLD; }
static inline int fresh_a_dim(void) { return (int)A_DIM; }
static inline int fresh_color_pair(int pair) { return (int)COLOR_PAIR(pair); }
static inline int fresh_key_resize(void) { return KEY_RESIZE; }
static inline int fresh_key_up(void) { return KEY_UP; }
static inline int fresh_key_down(void) { return KEY_DOWN; }
static inline int fresh_key_npage(void) { return KEY_NPAGE; }
static inline int fresh_key_ppage(void) { return KEY_PPAGE; }
static inline int fresh_key_enter(void) { return KEY_ENTER; }
static inline int fresh_key_home(void) { return KEY_HOME; }
static inline int fresh_key_end(void) { return KEY_END; }
static inline int fresh_err(void) { return ERR; }
static inline int fresh_ok(void) { return OK; }
static inline int fresh_key_code_yes(void) { return KEY_CODE_YES; }
static inline int fresh_key_backspace(void) { return KEY_BACKSPACE; }

#endif
