import Foundation

/// A plugin for tests, in Python with no dependencies: `fake.py MODE KIND [STATE_DIR]`. Every mode says the same hello
/// (kind KIND: an enum `size`, an int `count` 1…5, a bool `flag`; intents `poke` and `crash`; left click runs `poke`)
/// and appends "hello" and then a line per request it gets to STATE_DIR/requests. Modes:
/// - `count`: a timeline is "n=N pid=PID" (N counts this process's timeline requests; after a `poke`, "n=N poked=BUTTON pid=PID"), policy never.
/// - `future`: "A" now and "B" 1.5 s later, policy never.
/// - `hang`: never answers a timeline.
/// - `garbage`: before each answer, lines that are not JSON, a 10 MB line, a reply to an unknown id.
/// - `push`: as `count`, and sends `reload` for instance `w` whenever STATE_DIR/trigger appears (then removes it).
/// - `reverse`: holds each timeline request until a second one is in flight, then answers both, the later first.
/// - `flood`: on its first timeline, prints 40,000 `log` lines as fast as it can, then answers.
/// - `chatty`: before each answer, prints 600 `log` lines at once (over the 500 a second a plugin may push), then
///   answers as `count`.
/// - `orphan`: as `count`, but after its first answer starts `sleep 1000` with its standard output (the sleep's pid
///   appended to STATE_DIR/orphans) and exits with status 0, leaving the sleep holding the pipe.
/// - `huge-reply`: answers each timeline with a line of 2 MiB, its id first.
/// - `closes-input`: closes its standard input, then answers its first timeline as `count` and lives on, reading
///   nothing.
/// In every mode, a plugin started while STATE_DIR/dead exists exits with status 4 before its hello.
/// An intent `poke` remembers the click's button and reloads the instance; `crash` exits with status 3.
public let fakePluginSource = #"""
    import json, os, sys, threading, time

    mode, kind = sys.argv[1], sys.argv[2]
    state = sys.argv[3] if len(sys.argv) > 3 else None
    lock = threading.Lock()

    def send(message):
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    def note(line):
        if state:
            with open(os.path.join(state, "requests"), "a") as f:
                f.write(line + "\n")

    if state and os.path.exists(os.path.join(state, "dead")):
        sys.exit(4)
    note("hello")
    send({"type": "hello", "protocol": 1, "version": "0.9", "kind": {
        "name": kind, "display_name": "Fake", "summary": "A plugin for tests.",
        "families": ["accessoryInline", "systemSmall"], "placeholder": "starting",
        "parameters": [
            {"name": "size", "type": "enum", "cases": ["small", "big"], "default": "small"},
            {"name": "count", "type": "int", "min": 1, "max": 5, "default": 1},
            {"name": "flag", "type": "bool", "default": False}],
        "intents": [{"name": "poke", "summary": "Poke it."}, {"name": "crash", "summary": "Exit at once."}],
        "buttons": {"left": "poke"}}})

    if mode == "push":
        def watch():
            trigger = os.path.join(state, "trigger")
            while True:
                if os.path.exists(trigger):
                    os.remove(trigger)
                    send({"type": "reload", "instances": ["w"]})
                time.sleep(0.05)
        threading.Thread(target=watch, daemon=True).start()

    timelines = 0
    poked = ""
    held = []
    for line in sys.stdin:
        request = json.loads(line)
        note(request["type"] + " " + request["instance"])
        if request["type"] == "intent":
            if request["intent"] == "crash":
                os._exit(3)
            poked = " poked=" + request.get("click", {}).get("button", "none")
            send({"id": request["id"]})
            continue
        timelines += 1
        now = request["now"]
        if mode == "hang":
            continue
        if mode == "reverse":
            held.append(request)
            if len(held) < 2:
                continue
            for waiting in reversed(held):
                send({"id": waiting["id"], "entries": [{"text": "answered " + waiting["instance"]}], "policy": "never"})
            held = []
            continue
        if mode == "flood" and timelines == 1:
            line = json.dumps({"type": "log", "level": "debug", "message": "flood"}) + "\n"
            with lock:
                for _ in range(40000):
                    sys.stdout.write(line)
                sys.stdout.flush()
        if mode == "chatty":
            line = json.dumps({"type": "log", "level": "debug", "message": "chatter"}) + "\n"
            with lock:
                sys.stdout.write(line * 600)
                sys.stdout.flush()
        if mode == "garbage":
            sys.stdout.write("not json at all\n{\"unterminated\": \n[1, 2, 3]\n")
            sys.stdout.flush()
            sys.stdout.buffer.write(b"\xff\xfe latin\n")
            chunk = "x" * (1 << 20)
            for _ in range(10):
                sys.stdout.write(chunk)
            sys.stdout.write("\n")
            sys.stdout.write(json.dumps({"id": 999999, "entries": [{"text": "stray"}]}) + "\n")
            sys.stdout.flush()
        if mode == "huge-reply":
            send({"id": request["id"], "entries": [{"text": "x" * (2 << 20)}], "policy": "never"})
            continue
        if mode == "closes-input":
            os.close(0)
            send({"id": request["id"], "entries": [{"text": "n=1 pid=%d" % os.getpid()}], "policy": "never"})
            time.sleep(1000)
        if mode == "future":
            entries = [{"date": now, "text": "A"}, {"date": now + 1.5, "text": "B"}]
        else:
            entries = [{"text": "n=%d%s pid=%d" % (timelines, poked, os.getpid())}]
        send({"id": request["id"], "entries": entries, "policy": "never"})
        if mode == "orphan":
            import subprocess
            child = subprocess.Popen(["sleep", "1000"])
            with open(os.path.join(state, "orphans"), "a") as f:
                f.write("%d\n" % child.pid)
            os._exit(0)
    """#

/// Writes the fake plugin into `directory` and returns its path.
public func writeFakePlugin(in directory: TemporaryDirectory) throws -> String {
    try directory.write("fake.py", fakePluginSource)
}
