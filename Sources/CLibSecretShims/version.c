#include "CLibSecretShims.h"

/* The version of the libsecret headers we were built with. */
int swift_keyring_libsecret_major(void) { return SECRET_MAJOR_VERSION; }
int swift_keyring_libsecret_minor(void) { return SECRET_MINOR_VERSION; }
int swift_keyring_libsecret_micro(void) { return SECRET_MICRO_VERSION; }
