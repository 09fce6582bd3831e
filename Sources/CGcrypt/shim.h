#ifndef SWIFT_KEYRING_CGCRYPT_SHIM_H
#define SWIFT_KEYRING_CGCRYPT_SHIM_H
#include <errno.h>
#include <gcrypt.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>

/*
 * gcry_control is variadic, which Swift cannot call, so every use of it lives
 * here as a small fixed-argument function with the swift_keyring_ prefix.
 */

/*
 * Initialises libgcrypt for the encrypted file store, once per process.
 *
 * When another part of the process (libsecret, for one) has already finished
 * libgcrypt's initialisation, it is left as it is and only the version is
 * checked. Otherwise: version check, a secure-memory pool of `secure_pool_bytes`
 * that grows in chunks of the same size when many stores are open, no warning
 * when the pool cannot be locked in RAM (containers without CAP_IPC_LOCK), and
 * the end of initialisation, so other threads may use the library.
 *
 * Returns the library's version, or NULL when it is older than `required`.
 */
static inline const char *swift_keyring_gcry_initialise(const char *required, size_t secure_pool_bytes) {
    if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        return gcry_check_version(required);
    }
    const char *version = gcry_check_version(required);
    if (version == NULL) {
        return NULL;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM_WARN);
    gcry_control(GCRYCTL_INIT_SECMEM, secure_pool_bytes, 0);
    gcry_control(GCRYCTL_AUTO_EXPAND_SECMEM, (unsigned int)secure_pool_bytes);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return version;
}

/* The version of the libgcrypt this process runs. */
static inline const char *swift_keyring_gcry_running_version(void) {
    return gcry_check_version(NULL);
}

/*
 * Overwrites `count` bytes with zeros through a volatile pointer, so the
 * compiler cannot drop the stores as dead before the memory is freed.
 */
static inline void swift_keyring_wipe(void *bytes, size_t count) {
    volatile unsigned char *cursor = (volatile unsigned char *)bytes;
    while (count--) {
        *cursor++ = 0;
    }
}

/*
 * Keeps this process's memory out of core dumps and away from other processes
 * of the same user: a core-file limit of zero, and PR_SET_DUMPABLE 0, which
 * also stops ptrace attaches and reads of /proc/PID/mem by anyone without
 * CAP_SYS_PTRACE. prctl is variadic, which Swift cannot call, hence this shim.
 *
 * Returns 0 when both took effect, else the errno of the first that failed.
 */
static inline int swift_keyring_process_forbid_dumps(void) {
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) {
        return errno;
    }
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        return errno;
    }
    return 0;
}

#endif
