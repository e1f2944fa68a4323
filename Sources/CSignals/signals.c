#include "CSignals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_end = -1;

static void record_signal(int signal) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal;
    (void)write(write_end, &byte, 1);
    errno = saved;
}

int gqlcache_catch_stop_signals(int including_interrupt) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    // A burst of signals must never block the handler.
    fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK);
    write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = record_signal;
    sigemptyset(&action.sa_mask);
    // System calls the signal lands in (a read of a prompt's answer) go on.
    action.sa_flags = SA_RESTART;
    // A signal the process was started ignoring (nohup's SIGHUP, SIGINT
    // for `cmd &` in a script) stays ignored, as its starter asked.
    const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (int index = including_interrupt ? 0 : 1; index < 4; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        sigaction(signals[index], &action, NULL);
    }
    return ends[0];
}

// The pager reading the output, while one does (see gqlcache_page_through).
static volatile pid_t pager_pid = 0;
static volatile int pager_fd = -1;
static const int pager_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static int pager_caught[4] = {0, 0, 0, 0};

// Ends the pager's input and waits for the user to quit it; safe in a
// signal handler (close and waitpid are).
static void wait_for_pager(void) {
    pid_t pid = pager_pid;
    if (pid <= 0) return;
    int fd = pager_fd;
    pager_fd = -1;
    if (fd >= 0) close(fd);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    pager_pid = 0;
}

static void end_with_pager(int signal) {
    wait_for_pager();
    gqlcache_die_of(signal);
}

void gqlcache_page_through(int pid, int fd) {
    pager_pid = pid;
    pager_fd = fd;
    struct sigaction action, current;
    memset(&action, 0, sizeof action);
    action.sa_handler = end_with_pager;
    sigemptyset(&action.sa_mask);
    // The other stop signals wait while the pager is waited for.
    for (int index = 0; index < 4; index++) sigaddset(&action.sa_mask, pager_signals[index]);
    for (int index = 0; index < 4; index++) {
        // A signal something else catches (a write's rollback) is left to it.
        sigaction(pager_signals[index], NULL, &current);
        if (current.sa_handler != SIG_DFL) continue;
        sigaction(pager_signals[index], &action, NULL);
        pager_caught[index] = 1;
    }
}

void gqlcache_pager_input_closed(void) { pager_fd = -1; }

void gqlcache_pager_done(void) {
    pager_pid = 0;
    pager_fd = -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < 4; index++) {
        if (pager_caught[index]) sigaction(pager_signals[index], &action, NULL);
        pager_caught[index] = 0;
    }
}

void gqlcache_die_of(int signal) {
    // Never leave a pager behind on the terminal, drawing over the shell's prompt.
    wait_for_pager();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signal);
}

int gqlcache_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int gqlcache_pending_input(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return 0;
    return count;
}
