#include "CGcrypt.h"

/* The header stops other systems with one #error; nothing below is then compiled. */
#if defined(__linux__)

#include <errno.h>
#include <sys/xattr.h>

long swift_keyring_file_acl(int descriptor, void *buffer, size_t size) {
    ssize_t count = fgetxattr(descriptor, "system.posix_acl_access", buffer, size);
    if (count >= 0) {
        return (long)count;
    }
    if (errno == ENODATA || errno == ENOTSUP) {
        return 0;
    }
    return -errno;
}

#endif
