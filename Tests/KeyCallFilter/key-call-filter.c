/* Starts a program under a real seccomp filter that refuses the kernel's key calls, for the
 * tests of what the tool and the library say where a container or an old kernel does so
 * (Tests/CLITests/CLIKeyCallsRefusedTests.swift):
 *
 *   key-call-filter refuse PROGRAM [ARGUMENT...]   add_key, keyctl and request_key fail with
 *                                                  EPERM, as under Docker's default profile
 *   key-call-filter no-move PROGRAM [ARGUMENT...]  only keyctl(KEYCTL_MOVE, ...) fails, with
 *                                                  EOPNOTSUPP, as on a kernel before Linux 5.1
 *   key-call-filter probe                          makes the calls itself and prints what the
 *                                                  kernel answered, so a test can see a filter
 *                                                  it was started under is really there
 *
 * A filter is kept across execve and inherited by every child, so the program and whatever it
 * starts run under it. Built by Scripts/build-c-test-program.sh, never by SwiftPM: users of the
 * library never need it. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* System call numbers differ between ABIs: the filter checks the caller's ABI first. */
#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH_ value"
#endif

/* keyctl's first argument is an int: on a little-endian machine its 32 bits are the low word. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the filter reads keyctl's operation as the low word of args[0]"
#endif

/* x86_64's x32 ABI shares the arch word and sets this bit in the number; no other ABI's numbers
 * reach it, so refusing what has it keeps x32's own add_key and keyctl out on every machine. */
#define X32_SYSCALL_BIT 0x40000000

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))

/* Docker's default profile answers every call it does not allow with EPERM. Jump offsets count
 * the instructions skipped (jt, jf). */
static struct sock_filter refuse[] = {
    LOAD(arch),                                                  /* 0 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 7),      /* 1: another ABI: to 9 */
    LOAD(nr),                                                    /* 2 */
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 5, 0),  /* 3: x32: to 9 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_add_key, 3, 0),     /* 4: to 8 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_keyctl, 2, 0),      /* 5: to 8 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_request_key, 1, 0), /* 6: to 8 */
    RETURN(SECCOMP_RET_ALLOW),                                   /* 7 */
    RETURN(SECCOMP_RET_ERRNO | EPERM),                           /* 8 */
    RETURN(SECCOMP_RET_KILL_PROCESS),                            /* 9 */
};

/* A kernel before 5.1 knows no KEYCTL_MOVE, and keyctl answers an operation it does not know
 * with EOPNOTSUPP; every other key call works. */
static struct sock_filter no_move[] = {
    LOAD(arch),                                                  /* 0 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 7),      /* 1: another ABI: to 9 */
    LOAD(nr),                                                    /* 2 */
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 5, 0),  /* 3: x32: to 9 */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_keyctl, 0, 3),      /* 4: not keyctl: to 8 */
    LOAD(args[0]),                                               /* 5: the operation */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KEYCTL_MOVE, 0, 1),      /* 6: another one: to 8 */
    RETURN(SECCOMP_RET_ERRNO | EOPNOTSUPP),                      /* 7 */
    RETURN(SECCOMP_RET_ALLOW),                                   /* 8 */
    RETURN(SECCOMP_RET_KILL_PROCESS),                            /* 9 */
};

static const char *answer(long result) { return result >= 0 ? "ok" : strerrorname_np(errno); }

/* Adds a key to this process's own keyring (gone when it exits) and moves it onto the same
 * keyring, which the kernel does without changing anything. */
static int probe(void) {
    long key = syscall(__NR_add_key, "user", "swift-keyring-filter-probe", "x", (size_t)1,
                       KEY_SPEC_PROCESS_KEYRING);
    printf("add_key: %s\n", answer(key));
    long moved = syscall(__NR_keyctl, KEYCTL_MOVE, key, KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_PROCESS_KEYRING, 0);
    printf("keyctl(KEYCTL_MOVE): %s\n", answer(moved));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "probe") == 0)
        return probe();
    struct sock_fprog program;
    if (argc >= 3 && strcmp(argv[1], "refuse") == 0)
        program = (struct sock_fprog){sizeof refuse / sizeof refuse[0], refuse};
    else if (argc >= 3 && strcmp(argv[1], "no-move") == 0)
        program = (struct sock_fprog){sizeof no_move / sizeof no_move[0], no_move};
    else {
        fprintf(stderr, "usage: key-call-filter refuse|no-move PROGRAM [ARGUMENT...] | key-call-filter probe\n");
        return 64;
    }
    /* An unprivileged process may install a filter only once it can gain no privileges: a
     * set-uid program it starts could otherwise be misled by calls that fail. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        perror("key-call-filter: installing the seccomp filter");
        return 70;
    }
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    return 127;
}
