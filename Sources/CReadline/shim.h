// GNU readline and history for the REPL, with small shims for what Swift
// cannot reach directly: global variables and a signal handler that must
// be a plain C function. GNU readline is licensed under the GPL-3.0.
#ifndef GQLCACHE_CREADLINE_SHIM_H
#define GQLCACHE_CREADLINE_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

#include <pthread.h>
#include <sys/select.h>

/// Where the prompt, the line being typed and readline's lists go:
/// standard output, or standard error when output goes to a file or a
/// pipe (as bash writes its prompt), so that only data lands there.
static int gqlcache_prompt_fd = STDOUT_FILENO;

static inline void gqlcache_prompt_to_stderr(void) {
    gqlcache_prompt_fd = STDERR_FILENO;
    rl_outstream = stderr;
}

static inline int gqlcache_prompt_descriptor(void) { return gqlcache_prompt_fd; }

/// Line editing by characters, not bytes: keys and GraphQL are UTF-8, and
/// in the C locale (LANG unset, or LC_ALL=C) readline takes each byte of
/// 'é' for a character, so Backspace leaves half of one. There LC_CTYPE
/// becomes C.UTF-8 where the system has it (a locale chosen otherwise, as
/// Latin-1, stays). readline sets the locale the environment names again
/// at every line, so the environment names C.UTF-8 too (LC_ALL when it is
/// set, else LC_CTYPE), for the programs started from the REPL as well.
static inline void gqlcache_use_utf8_characters(void) {
    const char *chosen = setlocale(LC_CTYPE, "");
    if (chosen != NULL && MB_CUR_MAX > 1) return;
    if (chosen != NULL && strcmp(chosen, "C") != 0 && strcmp(chosen, "POSIX") != 0) return;
    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {
        (void)setlocale(LC_CTYPE, "C");
        return;
    }
    const char *all = getenv("LC_ALL");
    (void)setenv(all != NULL && *all != 0 ? "LC_ALL" : "LC_CTYPE", "C.UTF-8", 1);
}

/// Set by SIGINT; read and cleared by the REPL.
static volatile sig_atomic_t gqlcache_interrupted = 0;
/// Counts every SIGINT: lines queued from one paste are dropped by a Ctrl-C
/// that came after them, whoever took the flag.
static volatile sig_atomic_t gqlcache_interrupt_count = 0;
/// Set by SIGCONT: after Ctrl-Z and fg, the line is drawn again.
static volatile sig_atomic_t gqlcache_continued = 0;
/// Set by SIGWINCH: the terminal's size changed, and the line is drawn for it.
static volatile sig_atomic_t gqlcache_resized = 0;
/// The line readline's callback gave (NULL at the end of input), and whether it came.
static char *gqlcache_line = NULL;
static int gqlcache_line_done = 0;

/// A pipe the handlers below write a byte to, which the reading loop
/// waits on beside standard input: a signal the kernel hands to another
/// thread of the process (which does not block it) would otherwise set its
/// flag without waking the loop, and the line would wait for the next key.
static int gqlcache_wake_pipe[2] = {-1, -1};

static void gqlcache_wake(void) {
    int saved = errno;
    if (gqlcache_wake_pipe[1] >= 0) (void)write(gqlcache_wake_pipe[1], "", 1);
    errno = saved;
}

/// Only sets flags and wakes the loop (which is all a signal handler may
/// safely do): the reading loop below and the REPL's watcher act on them.
static void gqlcache_sigint(int signal) {
    (void)signal;
    gqlcache_interrupted = 1;
    gqlcache_interrupt_count += 1;
    gqlcache_wake();
}

static void gqlcache_sigcont(int signal) {
    (void)signal;
    gqlcache_continued = 1;
    gqlcache_wake();
}

static void gqlcache_sigwinch(int signal) {
    (void)signal;
    gqlcache_resized = 1;
    gqlcache_wake();
}

/// Ctrl-C interrupts the line or the running command, never the process.
static inline void gqlcache_install_sigint_handler(void) {
    if (gqlcache_wake_pipe[0] < 0 && pipe(gqlcache_wake_pipe) == 0) {
        for (int end = 0; end < 2; end++) {
            fcntl(gqlcache_wake_pipe[end], F_SETFD, FD_CLOEXEC);
            fcntl(gqlcache_wake_pipe[end], F_SETFL, fcntl(gqlcache_wake_pipe[end], F_GETFL) | O_NONBLOCK);
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = gqlcache_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    action.sa_handler = gqlcache_sigcont;
    sigaction(SIGCONT, &action, NULL);
    action.sa_handler = gqlcache_sigwinch;
    sigaction(SIGWINCH, &action, NULL);
    // readline must not install its own handlers: it would re-raise SIGINT,
    // and in callback mode act on a resize only at the next key.
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
}

/// For a signal that ends the process at the prompt: the terminal gets
/// back the mode it had before readline's, and the shell's next line
/// starts on a line of its own. Nothing while a command runs (readline
/// has given the terminal back then).
static inline void gqlcache_restore_terminal(void) {
    if (!RL_ISSTATE(RL_STATE_TERMPREPPED)) return;
    rl_deprep_terminal();
    if (isatty(gqlcache_prompt_fd)) (void)write(gqlcache_prompt_fd, "\n", 1);
}

static inline int gqlcache_take_interrupt(void) {
    int was = gqlcache_interrupted;
    gqlcache_interrupted = 0;
    return was;
}

static inline long gqlcache_interrupts(void) { return (long)gqlcache_interrupt_count; }

static void gqlcache_take_line(char *line) {
    gqlcache_line = line;
    gqlcache_line_done = 1;
    rl_callback_handler_remove();
}

/// Cancels the line being typed and shows a fresh prompt, as bash does: the
/// typed text stays on screen, ^C after it; a search's find is not left
/// there, as if it had been taken.
static inline void gqlcache_cancel_line(const char *fresh_prompt) {
    int searching = RL_ISSTATE(RL_STATE_ISEARCH | RL_STATE_NSEARCH | RL_STATE_SEARCH);
    rl_callback_sigcleanup();
    if (searching) {
        rl_clear_visible_line();
        rl_replace_line("", 0);
        rl_on_new_line();
    }
    rl_point = rl_end;
    rl_redisplay();
    (void)write(gqlcache_prompt_fd, "^C", 2);
    rl_crlf();
    rl_free_line_state();
    rl_replace_line("", 0);
    rl_mark = 0;
    rl_callback_handler_remove();
    rl_callback_handler_install(fresh_prompt, gqlcache_take_line);
}

/// Reads a line at `prompt`; Ctrl-C drops it and reads on at `fresh_prompt`.
/// Readline's callback interface, so that the loop, not a signal handler,
/// cancels the line: a reverse search (Ctrl-R) or any other key sequence
/// in progress is given up with it, and nothing found there is run. The
/// signals it acts on are blocked except while it waits for a key
/// (pselect), so that one that comes while readline works on a key (a
/// slow completion, the wait after Escape) is acted on next, not left
/// until another key comes.
static inline char *gqlcache_readline(const char *prompt, const char *fresh_prompt) {
    gqlcache_line = NULL;
    gqlcache_line_done = 0;
    gqlcache_continued = 0;
    long seen = gqlcache_interrupt_count;
    sigset_t acted_on, waiting;
    sigemptyset(&acted_on);
    sigaddset(&acted_on, SIGINT);
    sigaddset(&acted_on, SIGCONT);
    sigaddset(&acted_on, SIGWINCH);
    pthread_sigmask(SIG_BLOCK, &acted_on, &waiting);
    // Ctrl-\ at the prompt does nothing, as in bash: ending the process
    // here would leave the terminal as readline set it (no echo).
    struct sigaction ignoring, quit_before;
    memset(&ignoring, 0, sizeof ignoring);
    ignoring.sa_handler = SIG_IGN;
    sigemptyset(&ignoring.sa_mask);
    sigaction(SIGQUIT, &ignoring, &quit_before);
    rl_callback_handler_install(prompt, gqlcache_take_line);
    // readline cannot wait for an answer in callback mode: it would ask
    // "Display all N possibilities? (y or n)" and go on without one.
    rl_variable_bind("completion-query-items", "0");
    rl_variable_bind("page-completions", "off");
    // A completed ~/name is written out whole: in quotes a ~ is not the home folder.
    rl_variable_bind("expand-tilde", "on");
    while (!gqlcache_line_done) {
        // A signal that came while readline worked waits, blocked; let it
        // in now. (pselect lets one in only when it has to wait: with a key
        // ready it returns at once, the signal still pending.)
        pthread_sigmask(SIG_SETMASK, &waiting, NULL);
        pthread_sigmask(SIG_BLOCK, &acted_on, NULL);
        if (gqlcache_interrupt_count != seen) {
            seen = gqlcache_interrupt_count;
            gqlcache_cancel_line(fresh_prompt);
        }
        if (gqlcache_continued) {
            gqlcache_continued = 0;
            // Back from Ctrl-Z: the terminal as readline needs it, and the line drawn again.
            rl_deprep_terminal();
            rl_prep_terminal(1);
            rl_on_new_line();
            rl_redisplay();
        }
        if (gqlcache_resized) {
            gqlcache_resized = 0;
            rl_resize_terminal();
        }
        fd_set ready;
        FD_ZERO(&ready);
        FD_SET(STDIN_FILENO, &ready);
        int wake = gqlcache_wake_pipe[0];
        if (wake >= 0) FD_SET(wake, &ready);
        int count = pselect((wake > STDIN_FILENO ? wake : STDIN_FILENO) + 1, &ready, NULL, NULL, NULL, &waiting);
        if (count < 0) {
            if (errno == EINTR) continue;
            rl_callback_handler_remove();
            break;
        }
        if (wake >= 0 && FD_ISSET(wake, &ready)) {
            // Woken by a signal another thread took: its flag is acted on at the top.
            char drained[64];
            while (read(wake, drained, sizeof drained) > 0) {}
            continue;
        }
        // A Ctrl-C that came with the key is acted on first.
        pthread_sigmask(SIG_SETMASK, &waiting, NULL);
        pthread_sigmask(SIG_BLOCK, &acted_on, NULL);
        if (gqlcache_interrupt_count != seen) continue;
        if (count > 0) rl_callback_read_char();
    }
    sigaction(SIGQUIT, &quit_before, NULL);
    pthread_sigmask(SIG_SETMASK, &waiting, NULL);
    return gqlcache_line;
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
        if (gqlcache_interrupted) { result = -2; break; }
        if (count < 0) { result = -1; break; }
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

/// A file name as the REPL's word splitting reads what was typed of it:
/// outside quotes a backslash keeps the next character (`my\ cache`); in
/// double quotes a backslash starts a JSON escape (`\"`, `\\`, `\n`, `\t`)
/// or keeps the character after it; in single quotes none.
static char *gqlcache_dequote_filename(char *text, int quote_char) {
    size_t length = strlen(text);
    char *plain = malloc(length + 1);
    size_t out = 0;
    for (size_t index = 0; index < length; index++) {
        char next = text[index + 1];
        if (text[index] == '\\' && next != 0 && quote_char != '\'') {
            index++;
            if (quote_char == '"' && next == 'n') { plain[out++] = '\n'; continue; }
            if (quote_char == '"' && next == 't') { plain[out++] = '\t'; continue; }
            if (quote_char == '"' && next == 'r') { plain[out++] = '\r'; continue; }
        }
        plain[out++] = text[index];
    }
    plain[out] = 0;
    return plain;
}

/// Quotes a completed file name as the REPL's word splitting reads it:
/// in the quote typed, else in double quotes, where `"` and `\` are escaped
/// and a control character is a JSON escape (readline's own quoting only
/// puts a quote in front). A name with `'` in it goes in double quotes.
static char *gqlcache_quote_filename(char *text, int match_type, char *quote_pointer) {
    (void)match_type;
    char quote = (quote_pointer && *quote_pointer) ? *quote_pointer : '"';
    // In single quotes nothing is escaped: a ' or a control character
    // (a line break would end the line) takes double quotes.
    if (quote == '\'') {
        for (const unsigned char *scan = (const unsigned char *)text; *scan; scan++) {
            if (*scan == '\'' || *scan < 0x20 || *scan == 0x7F) { quote = '"'; break; }
        }
    }
    size_t length = strlen(text);
    char *quoted = malloc(6 * length + 2);
    size_t out = 0;
    quoted[out++] = quote;
    for (size_t index = 0; index < length; index++) {
        unsigned char character = (unsigned char)text[index];
        if (quote == '"' && (character == '"' || character == '\\')) {
            quoted[out++] = '\\';
        } else if (quote == '"' && (character < 0x20 || character == 0x7F)) {
            out += (size_t)sprintf(quoted + out, character == '\n' ? "\\n" : character == '\t' ? "\\t" : "\\u%04x", character);
            continue;
        }
        quoted[out++] = (char)character;
    }
    quoted[out] = 0;
    if (quote_pointer) *quote_pointer = quote;
    return quoted;
}

/// Readline keeps the pointer, and Swift's strings passed to C live only
/// for the call: copy.
static inline void gqlcache_set_word_breaks(const char *characters) {
    rl_completer_word_break_characters = strdup(characters);
    rl_basic_word_break_characters = strdup(characters);
    rl_completer_quote_characters = "\"'";
    // File names with these are completed in quotes, as the REPL splits its words.
    rl_filename_quote_characters = " \t\n\"'\\";
    rl_filename_dequoting_function = gqlcache_dequote_filename;
    rl_filename_quoting_function = gqlcache_quote_filename;
}

static inline void gqlcache_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Who lists the matches when Tab is pressed twice (NULL: readline).
static inline void gqlcache_set_display_matches(rl_compdisp_func_t *function) {
    rl_completion_display_matches_hook = function;
}

/// 1 while readline completes file names (and lists each by its last part).
static inline int gqlcache_completing_file_names(void) { return rl_filename_completion_desired; }

/// Lists `matches` (1 to `count`; 0 is the common beginning) in columns
/// `width` wide, as readline does, and `note` on a line under them when
/// there is one, then redraws the prompt and line under them, which
/// readline leaves to the one who lists.
static inline void gqlcache_display_match_list(char **matches, int count, int width, const char *note) {
    rl_display_match_list(matches, count, width);
    if (note != NULL) {
        fprintf(rl_outstream != NULL ? rl_outstream : stdout, "%s\n", note);
    }
    rl_forced_update_display();
}

/// Says whether a word break character is quoted, so that readline's word
/// is the REPL's (`'a b'` is one word).
static inline void gqlcache_set_char_is_quoted(rl_linebuf_func_t *function) { rl_char_is_quoted_p = function; }

/// 1: the completion function writes the closing quote itself.
static inline void gqlcache_set_suppress_quote(int suppress) { rl_completion_suppress_quote = suppress; }

/// After a completion function: 1 stops readline from also completing file names.
static inline void gqlcache_set_completion_over(int over) { rl_attempted_completion_over = over; }

static inline void gqlcache_set_append_character(int character) { rl_completion_append_character = character; }

/// 1: no space after the one completion (readline sets 0 again before each Tab).
static inline void gqlcache_set_suppress_append(int suppress) { rl_completion_suppress_append = suppress; }

static inline const char *gqlcache_line_buffer(void) { return rl_line_buffer; }

/// The prompt readline shows now: a continuation's, or after Ctrl-C a fresh one.
static inline const char *gqlcache_current_prompt(void) { return rl_prompt; }

static inline void gqlcache_set_readline_name(const char *name) { rl_readline_name = strdup(name); }

#endif
