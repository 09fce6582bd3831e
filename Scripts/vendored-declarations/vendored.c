/* Against the vendored header alone: the assertions real.c printed (expected.h, from
 * check-vendored-declarations.sh) must hold here too. */
#include "CLibSecret.h"

#include <stddef.h>

#include "expected.h"
