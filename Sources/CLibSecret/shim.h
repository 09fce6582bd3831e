#ifndef SWIFT_KEYRING_CLIBSECRET_SHIM_H
#define SWIFT_KEYRING_CLIBSECRET_SHIM_H

/* libsecret and GIO as they are; the glue Swift needs lives in the C target
 * CLibSecretShims. The D-Bus path calls are what keep a store to few round
 * trips; libsecret marks them unstable. */
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <gio/gio.h>

#endif
