"""Whole processes side by side: interleaved runs, medians (issue 27's start targets).

    python3 process-rounds.py SPEC.json ROUNDS [WARMUP]

SPEC.json is a list of commands: {"name": …, "argv": […], "stdin": PATH or null,
"env": {…} added to this process's environment}. Each round runs every command once,
the order turned by one place each round so no command is always first after another;
a command's time is from just before posix_spawn to just after its exit (its stdout
and stderr go to /dev/null). Every run must exit 0, or the script fails naming it:
a figure made of failed runs would mean nothing.

Prints NAME<TAB>RUNS<TAB>MEDIAN-µs<TAB>MIN-µs lines.
"""
import json
import os
import statistics
import sys
import time


def spawn(command, devnull):
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    stdin = None
    if command.get("stdin"):
        stdin = os.open(command["stdin"], os.O_RDONLY)
        actions.insert(0, (os.POSIX_SPAWN_DUP2, stdin, 0))
    else:
        actions.insert(0, (os.POSIX_SPAWN_DUP2, devnull, 0))
    environment = dict(os.environ)
    environment.update(command.get("env") or {})
    started = time.perf_counter_ns()
    pid = os.posix_spawn(command["argv"][0], command["argv"], environment, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - started
    if stdin is not None:
        os.close(stdin)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"process-rounds: {command['name']} exited with {code}: {' '.join(command['argv'])}")
    return elapsed / 1000


def main():
    commands = json.load(open(sys.argv[1]))
    rounds = int(sys.argv[2])
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    devnull = os.open(os.devnull, os.O_RDWR)
    for _ in range(warmup):
        for command in commands:
            spawn(command, devnull)
    times = {command["name"]: [] for command in commands}
    for round_index in range(rounds):
        shift = round_index % len(commands)
        for command in commands[shift:] + commands[:shift]:
            times[command["name"]].append(spawn(command, devnull))
    for command in commands:
        values = times[command["name"]]
        print(f"{command['name']}\t{len(values)}\t{statistics.median(values):.1f}\t{min(values):.1f}")


if __name__ == "__main__":
    main()
