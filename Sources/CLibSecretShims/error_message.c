#include "CLibSecretShims.h"

#include <stdarg.h>
#include <stdio.h>

void swift_keyring_set_error(GError **error, GQuark domain, gint code, const char *format, ...) {
    /* Long enough for any message here: a D-Bus type or object path, and a sentence. */
    char message[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    g_set_error_literal(error, domain, code, message);
}
