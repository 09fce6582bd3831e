/* Against the real headers: prints what they say of every name in checked.h, as C that
 * vendored.c compiles, and (with the prototypes of CLibSecretFunctions.h, declared a
 * second time below) fails to compile when a listed prototype differs from the real one. */
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <gio/gio.h>
#include <libsecret/secret.h>
#include <stddef.h>
#include <stdio.h>

#define SWIFT_KEYRING_DECLARATIONS_ONLY 1
#include "CLibSecret.h"

#include "checked.h"

_Static_assert(SECRET_MAJOR_VERSION == 0 && SECRET_MINOR_VERSION >= 20, "libsecret 0.20 or later is needed");

#define PRINT_CONSTANT(name) printf("_Static_assert((long)(" #name ") == %ldL, \"" #name "\");\n", (long)(name));
#define PRINT_TYPE(type)                                                                                         \
    printf("_Static_assert(sizeof(" #type ") == %zu && _Alignof(" #type ") == %zu, \"" #type "\");\n",          \
           sizeof(type), _Alignof(type));
#define PRINT_FIELD(type, field)                                                                                  \
    printf("_Static_assert(offsetof(" #type ", " #field ") == %zu, \"" #type "." #field "\");\n",               \
           offsetof(type, field));

int main(void) {
    CHECKED_CONSTANTS(PRINT_CONSTANT)
    CHECKED_TYPES(PRINT_TYPE)
    CHECKED_FIELDS(PRINT_FIELD)
    return 0;
}
