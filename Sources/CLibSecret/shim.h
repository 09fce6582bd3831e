#ifndef SWIFT_KEYRING_CLIBSECRET_SHIM_H
#define SWIFT_KEYRING_CLIBSECRET_SHIM_H
#include <libsecret/secret.h>
#endif
