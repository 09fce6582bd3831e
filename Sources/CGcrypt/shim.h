#ifndef SWIFT_KEYRING_CGCRYPT_SHIM_H
#define SWIFT_KEYRING_CGCRYPT_SHIM_H
#include <gcrypt.h>

/*
 * gcry_control is variadic, which Swift cannot call, so every use of it lives
 * here as a small fixed-argument function with the skr_ prefix.
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
static inline const char *skr_gcry_initialise(const char *required, size_t secure_pool_bytes) {
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
static inline const char *skr_gcry_running_version(void) {
    return gcry_check_version(NULL);
}

/*
 * Overwrites `count` bytes with zeros through a volatile pointer, so the
 * compiler cannot drop the stores as dead before the memory is freed.
 */
static inline void skr_wipe(void *bytes, size_t count) {
    volatile unsigned char *cursor = (volatile unsigned char *)bytes;
    while (count--) {
        *cursor++ = 0;
    }
}

#endif
