"""A tiny helper for widgetd plugins written in Python (protocol: docs/PLUGINS.md).

    import widgetd_plugin as wp
    wp.serve({"name": "hello", "families": ["systemSmall"]}, timeline=lambda request: {"entries": [{"text": "hi"}]})

`serve` says hello, then answers each request with what the matching handler returns (a dict with "entries" and
"policy", or for an intent anything, even None); an exception becomes an {"error": …} reply. `reload()` and `log()`
may be called at any time, from any thread.
"""
import json
import sys
import threading

PROTOCOL = 1
_output = threading.Lock()


def send(message):
    """Writes one message as one line; safe from any thread."""
    line = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    with _output:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def reload(instances=None):
    """Asks the daemon for new timelines: of every widget of the kind, or of the named instances."""
    send({"type": "reload", "instances": list(instances)} if instances else {"type": "reload"})


def log(message, level="info"):
    send({"type": "log", "level": level, "message": str(message)})


def serve(kind, timeline, intent=None, snapshot=None, version="1.0"):
    """Runs the plugin until the daemon closes its input."""
    send({"type": "hello", "protocol": PROTOCOL, "version": version, "kind": kind})
    handlers = {"timeline": timeline, "snapshot": snapshot or timeline, "intent": intent}
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            log("a request that is not JSON: %r" % line[:80], "warning")
            continue
        handler = handlers.get(request.get("type"))
        try:
            if handler is None:
                raise ValueError("no handler for %r requests" % request.get("type"))
            reply = dict(handler(request) or {})
        except Exception as error:  # the reply says what went wrong; the plugin keeps serving
            reply = {"error": "%s: %s" % (type(error).__name__, error)}
        reply["id"] = request.get("id")
        send(reply)
