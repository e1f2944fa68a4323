// GNU readline and history for the REPL, with small shims for what Swift
// cannot reach directly: global variables and a signal handler that must
// be a plain C function. GNU readline is licensed under the GPL-3.0.
#ifndef GQLCACHE_CREADLINE_SHIM_H
#define GQLCACHE_CREADLINE_SHIM_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

/// Set by SIGINT; read and cleared by the REPL.
static volatile sig_atomic_t gqlcache_interrupted = 0;
/// Whether readline is waiting for a line (so Ctrl-C clears it).
static volatile sig_atomic_t gqlcache_reading_line = 0;
/// The prompt Ctrl-C starts over at: a statement's first, also when the
/// line being read continues it.
static char *gqlcache_fresh_prompt = NULL;

static void gqlcache_sigint(int signal) {
    (void)signal;
    gqlcache_interrupted = 1;
    if (gqlcache_reading_line) {
        // Cancel the line being typed and show a fresh prompt, as bash does.
        (void)write(STDOUT_FILENO, "^C\n", 3);
        rl_free_line_state();
        rl_on_new_line();
        if (gqlcache_fresh_prompt) rl_set_prompt(gqlcache_fresh_prompt);
        rl_replace_line("", 0);
        rl_redisplay();
    }
}

/// Ctrl-C interrupts the line or the running command, never the process.
static inline void gqlcache_install_sigint_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = gqlcache_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    // readline must not install its own handler, which would re-raise SIGINT.
    rl_catch_signals = 0;
}

static inline int gqlcache_take_interrupt(void) {
    int was = gqlcache_interrupted;
    gqlcache_interrupted = 0;
    return was;
}

/// Reads a line at `prompt`; Ctrl-C drops it and reads on at `fresh_prompt`.
static inline char *gqlcache_readline(const char *prompt, const char *fresh_prompt) {
    free(gqlcache_fresh_prompt);
    gqlcache_fresh_prompt = strdup(fresh_prompt);
    gqlcache_reading_line = 1;
    char *line = readline(prompt);
    gqlcache_reading_line = 0;
    return line;
}

/// Reads one line of an answer from standard input (the terminal, in its
/// usual line mode) into `buffer`, without its newline. Ctrl-C gives the
/// question up: -1, as does the end of input with nothing typed; else the
/// answer's length. SIGINT interrupts the read here (no SA_RESTART) and
/// goes back to restarting reads after.
static inline long gqlcache_read_answer(char *buffer, unsigned long size) {
    struct sigaction previous, interrupting;
    sigaction(SIGINT, NULL, &previous);
    interrupting = previous;
    interrupting.sa_flags &= ~SA_RESTART;
    sigaction(SIGINT, &interrupting, NULL);
    gqlcache_interrupted = 0;
    unsigned long length = 0;
    long result = 0;
    for (;;) {
        char character;
        long count = (long)read(STDIN_FILENO, &character, 1);
        if (count < 0 && errno == EINTR && !gqlcache_interrupted) continue;
        if (count < 0 || gqlcache_interrupted) { result = -1; break; }
        if (count == 0) { result = length > 0 ? (long)length : -1; break; }
        if (character == '\n') { result = (long)length; break; }
        if (length + 1 < size) buffer[length++] = character;
    }
    buffer[length] = 0;
    // The question is answered "no"; the Ctrl-C is spent on it.
    gqlcache_interrupted = 0;
    sigaction(SIGINT, &previous, NULL);
    return result;
}

/// Readline keeps the pointer, and Swift's strings passed to C live only
/// for the call: copy.
static inline void gqlcache_set_word_breaks(const char *characters) {
    rl_completer_word_break_characters = strdup(characters);
    rl_basic_word_break_characters = strdup(characters);
    rl_completer_quote_characters = "\"'";
}

static inline void gqlcache_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Says whether a word break character is quoted, so that readline's word
/// is the REPL's (`'a b'` is one word).
static inline void gqlcache_set_char_is_quoted(rl_linebuf_func_t *function) { rl_char_is_quoted_p = function; }

/// 1: the completion function writes the closing quote itself.
static inline void gqlcache_set_suppress_quote(int suppress) { rl_completion_suppress_quote = suppress; }

/// After a completion function: 1 stops readline from also completing file names.
static inline void gqlcache_set_completion_over(int over) { rl_attempted_completion_over = over; }

static inline void gqlcache_set_append_character(int character) { rl_completion_append_character = character; }

static inline const char *gqlcache_line_buffer(void) { return rl_line_buffer; }

static inline void gqlcache_set_readline_name(const char *name) { rl_readline_name = strdup(name); }

#endif
