/*
 * Keeps a socket open in a child process of its own for a while: see
 * swift_keyring_keep_open in CGcrypt.h, and ConnectionKeeper.swift for why.
 */
#ifdef __linux__
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "CGcrypt.h"

int swift_keyring_keep_open(int descriptor, unsigned seconds) {
    /* A copy above the child's fixed numbers, so that the dup2 below always clears its
     * close-on-exec flag (a dup2 onto the same number would leave it set). */
    int copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 10);
    if (copy < 0) return errno;

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) {
        close(copy);
        return result;
    }
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        close(copy);
        return result;
    }
    /* Nothing of this process but the socket: no terminal, no pipe a parent waits to see
     * closed, no other descriptor the caller opened without close-on-exec. */
    if (result == 0) result = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (result == 0) result = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, copy, 3);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    /* A session of its own (a terminal's Ctrl-C or hang-up does not end it early), no
     * blocked signal, and every signal's default action (so it can always be stopped). */
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) {
        result = posix_spawnattr_setflags(
            &attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    pid_t shell = 0;
    if (result == 0) {
        /* The shell starts sleep in the background and exits at once: it is waited for
         * here, and sleep, whose parent is then gone, is never this process's zombie. */
        char script[48];
        snprintf(script, sizeof script, "sleep %u &", seconds);
        char *arguments[] = {"sh", "-c", script, NULL};
        char *environment[] = {"PATH=/usr/bin:/bin", NULL};
        result = posix_spawn(&shell, "/bin/sh", &actions, &attributes, arguments, environment);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(copy);
    if (result != 0) return result;
    int status;
    while (waitpid(shell, &status, 0) < 0 && errno == EINTR) {
    }
    return 0;
}
#endif /* __linux__ */
