#ifndef SWIFT_KEYRING_CGCRYPT_H
#define SWIFT_KEYRING_CGCRYPT_H

/* Every module of the package reaches the system through this one, so on another system the
 * build stops here with one sentence rather than with a failed `import Glibc` in each file. */
#if !defined(__linux__)
#error "swift-keyring builds on Linux only (the Secret Service over D-Bus, libgcrypt, Linux's file and process calls); see README.md, Requirements"
#else

/* libgcrypt, loaded when crypto is first needed rather than linked, so `--version`,
 * `--help` and a program that never seals a record do not load it. <gcrypt.h> gives the
 * types, constants and prototypes; the functions of CGcryptFunctions.h are stubs in this
 * target that call the loaded library (and abort, naming themselves, before it is).
 * Every other symbol has the swift_keyring_ prefix. */

#include <gcrypt.h>
#include <stddef.h>
/* getrandom, for the Secret Service transfer's exponent (DHKeyAgreement.swift). */
#include <sys/random.h>

/* Loads libgcrypt.so.20 and finds every function of CGcryptFunctions.h, once a process;
 * later calls return the first answer. Returns NULL when they are ready, or a sentence
 * naming the library and the loader's reason (static storage). Safe from any thread. */
const char *swift_keyring_gcry_load(void);

/*
 * Initialises libgcrypt for the encrypted file store, once per process, after
 * swift_keyring_gcry_load returned NULL.
 *
 * When another part of the process (libsecret, for one) has already finished
 * libgcrypt's initialisation, it is left as it is and only the version is
 * checked. Otherwise: version check, a secure-memory pool of `first_pool_bytes`
 * that grows in pools of `added_pool_bytes` when many stores are open, no warning
 * when the pool cannot be locked in RAM (containers without CAP_IPC_LOCK), and
 * the end of initialisation, so other threads may use the library.
 *
 * Returns the library's version, or NULL when it is older than `required`.
 */
const char *swift_keyring_gcry_initialise(const char *required, size_t first_pool_bytes, size_t added_pool_bytes);

/* The version of the libgcrypt this process runs, after a successful load. */
const char *swift_keyring_gcry_running_version(void);

/*
 * Overwrites `count` bytes with zeros through a volatile pointer, so the
 * compiler cannot drop the stores as dead before the memory is freed, then
 * zeroes the vector registers (xmm/ymm0-15, and zmm16-31 where there is
 * AVX-512; x86-64 only): memcpy and memcmp move a secret through them, and the
 * dynamic linker's lazy-binding trampoline (_dl_runtime_resolve_xsavec) saves
 * every one of them to the stack at a function's first call, where no wipe of
 * ours reaches. Needs no library.
 */
void swift_keyring_wipe(void *bytes, size_t count);

/*
 * Keeps this process's memory out of core dumps and away from other processes
 * of the same user: a core-file limit of zero, and PR_SET_DUMPABLE 0, which
 * also stops ptrace attaches and reads of /proc/PID/mem by anyone without
 * CAP_SYS_PTRACE. prctl is variadic, which Swift cannot call, hence this shim.
 * Needs no library.
 *
 * Returns 0 when both took effect, else the errno of the first that failed.
 */
int swift_keyring_process_forbid_dumps(void);

/*
 * The POSIX access ACL of the open file `descriptor` (the `system.posix_acl_access`
 * attribute, in the kernel's format), read into `buffer`: the number of bytes, 0 when the
 * file has no ACL (or its file system keeps none), or -errno. A file's group mode bits are
 * its ACL's mask when it has one, so they alone cannot say who may read it. Swift's Glibc
 * module does not export <sys/xattr.h>, hence this shim. Needs no library.
 */
long swift_keyring_file_acl(int descriptor, void *buffer, size_t size);

#endif /* __linux__ */

#endif
