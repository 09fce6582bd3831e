"""The comparison workload through Python's keyring and its SecretService backend.

    /usr/bin/python3 python-keyring-bench.py COUNT SERVICE

Run by Benchmarks/compare.sh with Debian's python3-keyring (the system Python,
which sees Debian's packages). Prints one line per phase, as libsecret-bench.c
does: "PHASE<TAB>COUNT<TAB>MICROSECONDS_PER_OP". keyring has no "remove all",
so the workload removes each record.
"""
import sys
import time

from keyring.backends import SecretService


def main():
    count = int(sys.argv[1])
    service = sys.argv[2]
    # The backend itself rather than keyring.get_keyring(), so a missing daemon
    # is an error here instead of a silent fall-back to another backend.
    backend = SecretService.Keyring()
    backend.get_password(service, "nothing")  # opens the connection, untimed

    def phase(name, body):
        started = time.perf_counter_ns()
        for index in range(count):
            body(index)
        elapsed_us = (time.perf_counter_ns() - started) / 1000
        print(f"{name}\t{count}\t{elapsed_us / max(count, 1):.3f}", flush=True)

    def store(index):
        backend.set_password(service, f"account-{index}", f"benchmark-password-{index}")

    def lookup(index):
        if backend.get_password(service, f"account-{index}") != f"benchmark-password-{index}":
            sys.exit(f"python-keyring-bench: lookup {index} returned a missing or wrong password")

    def remove(index):
        backend.delete_password(service, f"account-{index}")

    phase("store", store)
    phase("lookup", lookup)
    phase("remove", remove)


if __name__ == "__main__":
    main()
