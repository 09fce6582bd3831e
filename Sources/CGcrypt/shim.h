#ifndef SWIFT_KEYRING_CGCRYPT_SHIM_H
#define SWIFT_KEYRING_CGCRYPT_SHIM_H
#include <gcrypt.h>
#endif
