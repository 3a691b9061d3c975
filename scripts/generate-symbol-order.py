#!/usr/bin/env python3
"""Writes Linker/release-symbol-order.txt: the functions an idle release daemon runs, for lld's --symbol-ordering-file.

Why (docs/PERFORMANCE.md, "Idle RSS" and "Swap cost"): the kernel maps 64 kB of a file around every page fault in
code, and MADV_RANDOM does not change that, so code run once at start-up and code run every second, scattered over
10 MB of `.text`, kept two thirds of it resident. The release link puts the functions listed here first, in this
order, so that what the daemon runs is contiguous: first what a second boundary of ten per-second clocks runs (its
cost above the kernel's is mostly the cold cache misses of its code after a second asleep: docs/PERFORMANCE.md,
"Swap cost"), then what the system kinds' bar runs at a sample ("The system kinds' bar"), then what a FIFO reload of one quotes widget runs (its latency is mostly the cold cache misses of its
code: "Reload latency"), then what it runs after start-up (an exec widget's reload, a FIFO reload and click, a
SIGHUP and a stop), then what only start-up runs. Only our modules' functions move (they are
compiled with `-function-sections`). A function missing from the list (renamed since, or never run here) keeps the
linker's order; a stale list costs memory and time, never correctness.

The profile is valgrind's callgrind (every function that runs, not a sample) on an unstripped release daemon:
  - ten per-second clocks: five seconds of swaps, after start-up;
  - the system kinds' bar, sampled every second, its line passed to a `widgetd bar`: ten seconds, after start-up;
  - one quotes widget: ten `reload q0` lines on the control FIFO, after start-up;
  - the example config (config/widgets.yaml): start-up until every timeline is in, 25 s idle (its per-second clock
    swaps, its exec widget reloads every 10 s), FIFO reloads and clicks, SIGHUP, a stop;
  - a config with no widgets: start-up, SIGHUP, a stop.
Run it after changes to the daemon's code (about 2 minutes; needs valgrind):
  scripts/generate-symbol-order.py            # builds an unstripped release daemon, profiles it, relinks
  scripts/generate-symbol-order.py --binary B # profiles an unstripped release binary B instead (then relink:
                                              # rm .build/release/widgetd; SwiftPM does not see the list change)
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
output = os.path.join(root, "Linker", "release-symbol-order.txt")


def build_unstripped(directory):
    """An unstripped release daemon (WIDGETD_KEEP_SYMBOLS=1, a relink), copied out."""
    environment = dict(os.environ, WIDGETD_KEEP_SYMBOLS="1")
    subprocess.run(["swift", "build", "-c", "release", "--product", "widgetd"], cwd=root, env=environment, check=True)
    binary = os.path.join(directory, "widgetd")
    shutil.copy(os.path.join(root, ".build", "release", "widgetd"), binary)
    return binary


def relink_stripped():
    """The stripped release daemon, linked again: SwiftPM does not know the list is an input of the link."""
    os.remove(os.path.realpath(os.path.join(root, ".build", "release", "widgetd")))
    subprocess.run(["swift", "build", "-c", "release", "--product", "widgetd"], cwd=root, check=True)


def wait_until(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def profile(
        binary, directory, name, config_text, widgets, idle_seconds, requests, gap=0.5, hangup=True, companion=None):
    """Runs the daemon under callgrind; returns the dump files: start-up, after it, and the stop. `companion`: the
    arguments of a `widgetd` command run beside it from start-up on (a bar that subscribes to its line)."""
    home = os.path.join(directory, name)
    control = os.path.join(home, "run", "widgetd")
    for path in ["run", "run/widgetd", "data", "state", "config", "config/widgetd", "cache"]:
        os.makedirs(os.path.join(home, path), mode=0o700, exist_ok=True)
    config = os.path.join(home, "config", "widgetd", "widgets.yaml")
    with open(config, "w") as file:
        file.write(config_text)
    environment = {
        "PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", home),
        "XDG_RUNTIME_DIR": os.path.join(home, "run"), "XDG_DATA_HOME": os.path.join(home, "data"),
        "XDG_STATE_HOME": os.path.join(home, "state"), "XDG_CONFIG_HOME": os.path.join(home, "config"),
        "XDG_CACHE_HOME": os.path.join(home, "cache"),
    }
    out = os.path.join(directory, name + ".callgrind")
    log = open(os.path.join(home, "daemon.log"), "w")
    daemon = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + out,
         binary, "run", "--config", config, "--log-level", "warning"],
        env=environment, stdout=subprocess.DEVNULL, stderr=log)
    status = os.path.join(control, "status")
    fifo = os.path.join(control, "control")
    started = wait_until(
        lambda: (len(os.listdir(status)) >= widgets if os.path.isdir(status) else False) if widgets
        else os.path.exists(fifo), 120)
    if not started:
        daemon.kill()
        sys.exit(f"the daemon did not start; see {home}/daemon.log")
    beside = None
    if companion:
        beside = subprocess.Popen(
            [binary] + companion + ["--config", config], env=environment, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # a pipe, as i3bar's: the bar hands it to the daemon
    time.sleep(1 if not companion else 5)
    subprocess.run(
        ["callgrind_control", "--dump", str(daemon.pid)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    time.sleep(idle_seconds)
    for line in requests:
        with open(fifo, "w") as file:
            file.write(line + "\n")
        time.sleep(gap)
    if hangup:
        daemon.send_signal(signal.SIGHUP)
        time.sleep(3)
    subprocess.run(
        ["callgrind_control", "--dump", str(daemon.pid)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    if beside:
        beside.terminate()
        beside.wait(10)
    daemon.send_signal(signal.SIGINT)
    daemon.wait(60)
    dumps = sorted(f for f in os.listdir(directory) if f.startswith(name + ".callgrind"))
    return [os.path.join(directory, f) for f in dumps]


def functions_run(path, binary):
    """The functions of `binary` that ran, in a callgrind file (names are compressed as `(id) name` once): those with
    instructions of their own in it. A function that only called others there (`calls=` lines, each followed by the
    call's inclusive cost) was a frame on the stack, not code that ran: the command's `run` that called the daemon's
    loop (17 kB) would otherwise open the list of a second's swaps."""
    objects, functions, current, function, found = {}, {}, None, None, []
    after_call = False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        match = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line)
        if match:
            kind, number, name = match.groups()
            table = objects if kind.endswith("ob") else functions
            if name:
                table[number] = name
            if kind == "ob":
                current = objects[number]
            elif kind == "fn":
                function = functions[number] if current == binary else None
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if re.match(r"(0x[0-9a-f]+|[+-]\d+|\*|\d+)\s", line):
            if not after_call and function is not None and function not in found:
                found.append(function)
            after_call = False
    return found


def shared_text_symbols():
    """The functions of the toolchain's static libraries (the standard library, Foundation) that share one `.text`
    section with others: the linker moves sections, so naming one of them moves its whole section (the standard
    library's Swift code is a single 1.6 MB section), which would split the listed functions around it."""
    info = subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True).stdout
    resources = re.search(r'"runtimeResourcePath": "([^"]+)"', info).group(1)
    libraries = os.path.join(os.path.dirname(resources), "swift_static", "linux")
    found = set()
    for library in sorted(os.listdir(libraries)):
        if not library.endswith(".a"):
            continue
        text = subprocess.run(
            ["readelf", "-SsW", os.path.join(libraries, library)],
            capture_output=True, text=True, errors="replace", check=True).stdout
        sections = {}
        for line in text.split("\n"):
            if line.startswith("File: "):
                sections = {}
            elif match := re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s", line):
                sections[match.group(1)] = match.group(2)
            else:
                parts = line.split()
                if len(parts) >= 8 and parts[0].endswith(":") and parts[3] == "FUNC" and sections.get(parts[6]) == ".text":
                    found.add(parts[7])
    return found


def main():
    directory = tempfile.mkdtemp(prefix="widgetd-order-")
    given = "--binary" in sys.argv
    # The real path: callgrind names the object by it, and `.build/release` is a symbolic link.
    binary = os.path.realpath(sys.argv[sys.argv.index("--binary") + 1]) if given else build_unstripped(directory)
    example = open(os.path.join(root, "config", "widgets.yaml")).read()
    requests = ["reload motivation", "click motivation 1", "reload focus_quote", "click todos 1", "reload load"]
    # Ten per-second clocks, first: a second boundary's swaps run cold after a second asleep, and their cost above the
    # kernel's is mostly the cache and TLB misses of their code (docs/PERFORMANCE.md, "Swap cost"). Then a FIFO reload
    # of a quotes widget alone: its latency is its code's cold cache misses too ("Reload latency"). Most of the two
    # paths' code is the same (the engine's step, the renderer, the writer).
    clocks = "widgets:\n" + "".join(
        f"  c{n}:\n    kind: clock\n    intent:\n      format: \"%T\"\n      seconds: true\n" for n in range(10))
    swaps = profile(binary, directory, "swap", clocks, 10, 5, [], hangup=False)
    swap_turn = [f for dump in swaps if dump.endswith(".2") for f in functions_run(dump, binary)]
    # The system kinds' bar, sampled every second and passed to a `widgetd bar` as its line: a sample's code runs cold
    # after the interval asleep, as a second's swaps do (docs/PERFORMANCE.md, "The system kinds' bar").
    system = (
        "widgets:\n  cpu: {kind: cpu, interval: 1s}\n  mem: {kind: memory, interval: 1s}\n"
        "  load: {kind: load, interval: 1s}\n  disk: {kind: disk, interval: 1s}\n  net: {kind: network}\n"
        "  snd: {kind: sound}\n  bat: {kind: battery}\n  clock: {kind: clock}\n"
        "bars:\n  system: [cpu, mem, load, disk, net, snd, bat, clock]\n")
    samples = profile(binary, directory, "system", system, 8, 10, [], hangup=False, companion=["bar", "--bar", "system"])
    sample_turn = [f for dump in samples if dump.endswith(".2") for f in functions_run(dump, binary)]
    quotes = "widgets:\n  q0:\n    kind: quotes\n    intent:\n      category: motivation\n"
    reloads = profile(binary, directory, "reload", quotes, 1, 0, ["reload q0"] * 10, gap=0.2, hangup=False)
    reload_turn = [f for dump in reloads if dump.endswith(".2") for f in functions_run(dump, binary)]
    dumps = profile(binary, directory, "example", example, 7, 25, requests)
    dumps += profile(binary, directory, "empty", "widgets: {}\n", 0, 2, [])
    # callgrind names its files: out (the stop), out.1 (start-up), out.2 (after start-up).
    start_up, later = [], []
    for dump in dumps:
        (start_up if dump.endswith(".1") else later).extend(functions_run(dump, binary))
    order = list(dict.fromkeys(swap_turn + sample_turn + reload_turn + later + start_up))
    # Functions that cannot move alone go last, so the ones that can stay together.
    shared = shared_text_symbols()
    order = [f for f in order if f not in shared] + [f for f in order if f in shared]
    with open(output, "w") as file:
        file.write("\n".join(order) + "\n")
    print(
        f"{output}: {len(order)} functions ({len(set(later))} after start-up, {len(swap_turn)} in a second's swaps, "
        f"{len(sample_turn)} in the system bar's samples, {len(reload_turn)} in a FIFO reload)")
    if not given:
        relink_stripped()
    shutil.rmtree(directory)


main()
