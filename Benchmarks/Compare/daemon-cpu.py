"""Where a Secret Service lookup's time goes: the client, the bus, the daemon.

    bash Scripts/with-secret-service.sh python3 Benchmarks/Compare/daemon-cpu.py \
        KEYRING-COMPARE LIBSECRET-BENCH [COUNT [ROUNDS]]

Run inside a private Secret Service, with the programs compare.sh builds. Each round runs,
one process after the other, keyring-compare's first lookups (`lookup`, `lookup-password`)
of COUNT records (300 unless given) and of one, its lookups again (`lookup-again`,
`lookup-password-again`: an untimed pass, then a timed one), and libsecret-bench's
`lookup` of COUNT and of one. For each process it takes the CPU time of the process itself
(wait4's rusage), of the daemon that owns org.freedesktop.secrets and of the bus (the
kernel's /proc/PID/schedstat, nanoseconds on the CPU, before and after). Per lookup:
a first lookup is the COUNT run less the one-record run, over COUNT - 1 (the process's
start, connection and session left out); a lookup again is the again run less the
first-lookup run of COUNT, over COUNT. The wall time is each program's own timed figure.

Prints the medians over ROUNDS (10 unless given), and what the three CPUs of a lookup again
add up to against C's first lookup: a floor no client that asks the daemon for the secret
can go under, whatever it costs itself. Every run must exit 0, or the script fails.
"""
import os
import statistics
import subprocess
import sys
import time


def owner_pid(name):
    """The process id the bus gives for NAME's owner (the bus answers for itself too)."""
    reply = subprocess.run(
        ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
         "org.freedesktop.DBus.GetConnectionUnixProcessID", f"string:{name}"],
        check=True, capture_output=True, text=True).stdout
    return int(reply.split()[-1])


def on_cpu(pid):
    with open(f"/proc/{pid}/schedstat") as schedstat:
        return int(schedstat.read().split()[0])


def run(argv, daemon, bus):
    """(the program's own µs figure of its last phase, client CPU ns, daemon ns, bus ns)."""
    daemon_before, bus_before = on_cpu(daemon), on_cpu(bus)
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as child:
        output = child.stdout.read().decode()
        # Reaped here for its rusage; with the code set, leaving the block does not wait again.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"daemon-cpu: {' '.join(argv)} exited with {child.returncode}")
    client = int((usage.ru_utime + usage.ru_stime) * 1e9)
    figure = float(output.split()[-1])
    return figure, client, on_cpu(daemon) - daemon_before, on_cpu(bus) - bus_before


def main():
    compare, csecret = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    daemon, bus = owner_pid("org.freedesktop.secrets"), owner_pid("org.freedesktop.DBus")
    run_id = os.urandom(4).hex()
    os.environ["SWIFT_KEYRING_COMPARE_SERVICE"] = f"cpu.swift.{run_id}"
    c_service = f"cpu.c.{run_id}"
    subprocess.run([compare, "secret-service", str(count), "store"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([csecret, str(count), c_service, "store"], check=True, stdout=subprocess.DEVNULL)

    def swift(n, phase):
        return run([compare, "secret-service", str(n), phase], daemon, bus)

    def c(n):
        return run([csecret, str(n), c_service, "lookup"], daemon, bus)

    rows = {}  # name -> list of (wall µs, client µs, daemon µs, bus µs) per round

    def add(name, wall, whole, less, over):
        cpus = [(whole[i] - less[i]) / over / 1000 for i in (1, 2, 3)]
        rows.setdefault(name, []).append((wall, *cpus))

    for round_number in range(rounds):
        for phase, name in (("lookup", "credentials(forKey:)"), ("lookup-password", "password(forKey:)")):
            first, one = swift(count, phase), swift(1, phase)
            again = swift(count, f"{phase}-again")
            add(f"swift {name} first", first[0], first, one, count - 1)
            add(f"swift {name} again", again[0], again, first, count)
        first, one = c(count), c(1)
        add("libsecret C first", first[0], first, one, count - 1)
        print(f"round {round_number + 1} of {rounds} done", file=sys.stderr)
        time.sleep(0.2)

    subprocess.run([csecret, str(count), c_service, "remove"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([compare, "secret-service", str(count), "removeall"], check=True, stdout=subprocess.DEVNULL)

    print(f"µs per lookup, median of {rounds} rounds, {count} records each")
    print(f"  {'':36} {'wall':>8} {'client':>8} {'daemon':>8} {'bus':>8}")
    medians = {}
    for name, values in rows.items():
        medians[name] = [statistics.median(v[i] for v in values) for i in range(4)]
        print(f"  {name:36} " + " ".join(f"{m:8.1f}" for m in medians[name]))
    c_wall = medians["libsecret C first"][0]
    print("against C's first lookup (wall)")
    for name, (wall, client, daemon_cpu, bus_cpu) in medians.items():
        if name.startswith("swift"):
            print(f"  {name:36} wall {wall / c_wall:.2f}x; daemon and bus alone {(daemon_cpu + bus_cpu) / c_wall:.2f}x")


main()
