#ifndef SWIFT_KEYRING_GCRYPT_CONTROL_H
#define SWIFT_KEYRING_GCRYPT_CONTROL_H

#include <gcrypt.h>

/* gcry_control, found by library_loading.c. Variadic, so it gets no stub of its name:
 * gcrypt_setup.c calls it through this pointer, with fixed arguments, as C may. */
typedef gcry_error_t (*swift_keyring_gcry_control_function)(enum gcry_ctl_cmds command, ...);
extern swift_keyring_gcry_control_function swift_keyring_gcry_control __attribute__((visibility("hidden")));

#endif
