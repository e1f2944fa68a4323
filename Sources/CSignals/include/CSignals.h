// Signals that end a command-line process (Ctrl-C, kill, a closed terminal),
// caught so that a write under way can roll back first. A handler must be a
// plain C function that does nothing but async-signal-safe work: it writes
// the signal's number to a pipe that a thread of the process reads.
#ifndef GQLCACHE_CSIGNALS_H
#define GQLCACHE_CSIGNALS_H

/// Catches SIGTERM, SIGHUP and SIGQUIT from now on, and SIGINT too when
/// `including_interrupt` is not 0 (the interactive REPL's Ctrl-C is its
/// own); returns the pipe's end to read a byte per signal from, or -1 when
/// the pipe could not be made (the signals then keep their default action).
int gqlcache_catch_stop_signals(int including_interrupt);

/// A pager (process `pid`) reads the output from the pipe end `fd`: a
/// signal that ends the process first closes `fd` and waits for the user to
/// quit the pager, as git does, so that no pager is left drawing over the
/// shell's prompt. Signals nothing else catches are caught for this.
void gqlcache_page_through(int pid, int fd);

/// The pager's input was closed by the process itself.
void gqlcache_pager_input_closed(void);

/// The pager has quit: signals go back to their default action.
void gqlcache_pager_done(void);

/// Gives `signal` its default action back and raises it (after waiting for
/// a pager, as above): the process ends as
/// it would have without the handler (status 128 + signal in a shell).
void gqlcache_die_of(int signal);

/// The columns of the terminal `fd` is, or 0 when it is none or cannot say
/// (ioctl is variadic in C, which Swift cannot call). Kept beside the
/// signals as the one other thing the terminal is asked.
int gqlcache_terminal_columns(int fd);

/// The bytes of whole lines waiting to be read from the terminal `fd`
/// (FIONREAD; a line not yet ended is not counted in canonical mode), or
/// 0 when it cannot say.
int gqlcache_pending_input(int fd);

#endif
