#include "CGcrypt.h"

/* The header stops other systems with one #error; nothing below is then compiled. */
#if defined(__linux__)
#include "gcrypt_control.h"

const char *swift_keyring_gcry_initialise(const char *required, size_t first_pool_bytes, size_t added_pool_bytes) {
    if (swift_keyring_gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        return gcry_check_version(required);
    }
    const char *version = gcry_check_version(required);
    if (version == NULL) {
        return NULL;
    }
    swift_keyring_gcry_control(GCRYCTL_DISABLE_SECMEM_WARN);
    swift_keyring_gcry_control(GCRYCTL_INIT_SECMEM, first_pool_bytes, 0);
    swift_keyring_gcry_control(GCRYCTL_AUTO_EXPAND_SECMEM, (unsigned int)added_pool_bytes);
    swift_keyring_gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return version;
}

const char *swift_keyring_gcry_running_version(void) {
    return gcry_check_version(NULL);
}

#endif
