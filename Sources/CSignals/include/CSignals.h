// Signals that end a command-line process (Ctrl-C, kill, a closed terminal),
// caught so that a write under way can roll back first. A handler must be a
// plain C function that does nothing but async-signal-safe work: it writes
// the signal's number to a pipe that a thread of the process reads.
#ifndef GQLCACHE_CSIGNALS_H
#define GQLCACHE_CSIGNALS_H

/// Catches SIGINT, SIGTERM, SIGHUP and SIGQUIT from now on; returns the pipe's end to
/// read a byte per signal from, or -1 when the pipe could not be made (the
/// signals then keep their default action).
int gqlcache_catch_stop_signals(void);

/// Gives `signal` its default action back and raises it: the process ends as
/// it would have without the handler (status 128 + signal in a shell).
void gqlcache_die_of(int signal);

#endif
