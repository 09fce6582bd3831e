/* Preloaded into KeePassXC under test (Scripts/with-keepassxc.sh): its release build turns
 * its own core dumps off at start (Bootstrap::disableCoreDumps: RLIMIT_CORE to 0 and
 * PR_SET_DUMPABLE to 0), so a crash would leave no core for gdb. These two requests become
 * no-ops; every other call passes through. Test-only: never built into the library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>

int setrlimit(__rlimit_resource_t resource, const struct rlimit *limit) {
    static int (*real)(__rlimit_resource_t, const struct rlimit *);
    if (resource == RLIMIT_CORE)
        return 0;
    if (real == NULL)
        real = (int (*)(__rlimit_resource_t, const struct rlimit *))dlsym(RTLD_NEXT, "setrlimit");
    return real(resource, limit);
}

int prctl(int option, ...) {
    static int (*real)(int, unsigned long, unsigned long, unsigned long, unsigned long);
    va_list arguments;
    va_start(arguments, option);
    unsigned long second = va_arg(arguments, unsigned long), third = va_arg(arguments, unsigned long),
                  fourth = va_arg(arguments, unsigned long), fifth = va_arg(arguments, unsigned long);
    va_end(arguments);
    if (option == PR_SET_DUMPABLE && second == 0)
        return 0;
    if (real == NULL)
        real = (int (*)(int, unsigned long, unsigned long, unsigned long, unsigned long))dlsym(RTLD_NEXT, "prctl");
    return real(option, second, third, fourth, fifth);
}
