"""Tests of the contrib plugins: each runs as a real process and is spoken to as the daemon speaks (docs/PLUGINS.md);
every message it sends is checked against the protocol's JSON Schemas (docs/plugin-protocol/).

    python3 -m unittest contrib/plugins/test_plugins.py
"""
import json
import os
import subprocess
import tempfile
import time
import unittest

import jsonschema

HERE = os.path.dirname(os.path.realpath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "docs", "plugin-protocol")


def schema(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json"), encoding="utf-8") as file:
        return json.load(file)


class Plugin:
    """A plugin process and the requests sent to it."""

    def __init__(self, name, env=None):
        self.process = subprocess.Popen(
            [os.path.join(HERE, name)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, **(env or {})))
        self.next_id = 0
        self.hello = self.read()
        jsonschema.validate(self.hello, schema("hello"))

    def read(self):
        return json.loads(self.process.stdout.readline())

    def ask(self, kind, instance="w", configuration=None, now=1764526800.0, **extra):
        self.next_id += 1
        request = dict(type=kind, id=self.next_id, instance=instance, family="systemSmall",
                       configuration=configuration or {}, now=now, time_zone="UTC", current=None, preview=False,
                       **extra)
        jsonschema.validate(request, schema(kind))
        # As the daemon writes them: compact, keys sorted (the shell plugin relies on that).
        self.process.stdin.write(json.dumps(request, sort_keys=True, separators=(",", ":")) + "\n")
        self.process.stdin.flush()
        reply = self.read()
        self.assert_reply(reply, self.next_id)
        return reply

    @staticmethod
    def assert_reply(reply, request_id):
        assert reply["id"] == request_id, reply
        jsonschema.validate(reply, schema("error" if "error" in reply else "reply"))

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=5)
        self.process.stdout.close()


class PomodoroTests(unittest.TestCase):
    def setUp(self):
        self.plugin = Plugin("pomodoro")
        self.config = {"work": 120, "label": "T"}

    def tearDown(self):
        self.plugin.close()

    def test_declares_its_intents_and_buttons(self):
        kind = self.plugin.hello["kind"]
        self.assertEqual(kind["name"], "pomodoro")
        self.assertEqual({intent["name"] for intent in kind["intents"]}, {"toggle", "reset", "start", "pause"})
        self.assertEqual(kind["buttons"], {"left": "toggle", "right": "reset"})

    def test_idle_shows_the_full_period(self):
        reply = self.plugin.ask("timeline", configuration=self.config)
        self.assertEqual(reply["entries"][0]["text"], "T 02:00")
        self.assertEqual(reply["policy"], "never")

    def test_start_gives_a_ticking_timer_and_a_done_entry_at_its_end(self):
        self.plugin.ask("intent", configuration=self.config, intent="toggle", parameters={},
                        click={"button": "left"})
        reply = self.plugin.ask("timeline", configuration=self.config, now=1764526810.0)
        first, done = reply["entries"]
        self.assertEqual(first["timer"], 1764526800.0 + 120)
        self.assertEqual(done["date"], 1764526800.0 + 120)
        self.assertTrue(done["urgent"])

    def test_pause_keeps_what_is_left_and_reset_sets_it_back(self):
        self.plugin.ask("intent", configuration=self.config, intent="start", parameters={"minutes": 10})
        self.plugin.ask("intent", configuration=self.config, intent="pause", parameters={}, now=1764526830.0)
        reply = self.plugin.ask("timeline", configuration=self.config, now=1764527000.0)
        self.assertEqual(reply["entries"][0]["text"], "T 09:30 ⏸")
        self.plugin.ask("intent", configuration=self.config, intent="reset", parameters={})
        reply = self.plugin.ask("timeline", configuration=self.config)
        self.assertEqual(reply["entries"][0]["text"], "T 02:00")

    def test_a_bad_request_gets_an_error_reply_and_the_plugin_keeps_serving(self):
        reply = self.plugin.ask("timeline", configuration={"work": "not a number"})
        self.assertIn("error", reply)
        self.assertEqual(self.plugin.ask("timeline", configuration=self.config)["entries"][0]["text"], "T 02:00")


class LoadavgTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.loadavg = os.path.join(self.directory.name, "loadavg")
        with open(self.loadavg, "w", encoding="utf-8") as file:
            file.write("5.25 1.00 0.50 1/100 1234\n")
        self.plugin = Plugin("loadavg", env={"LOADAVG_FILE": self.loadavg})

    def tearDown(self):
        self.plugin.close()
        self.directory.cleanup()

    def test_shows_the_load_red_above_the_threshold_and_reloads_after_its_period(self):
        reply = self.plugin.ask("timeline", configuration={"above": 4, "every": 30})
        self.assertEqual(reply["entries"][0], {"text": "load 5.25", "color": "#FF5555"})
        self.assertAlmostEqual(reply["policy"]["after"], 1764526800.0 + 30)

    def test_stays_plain_below_the_threshold(self):
        reply = self.plugin.ask("timeline", configuration={"above": 10, "every": 5})
        self.assertEqual(reply["entries"][0]["color"], "#FFFFFF")

    def test_answers_requests_in_the_order_they_come_with_their_ids(self):
        for _ in range(3):
            self.plugin.ask("snapshot", configuration={"above": 4, "every": 30})


class CountdownTests(unittest.TestCase):
    def setUp(self):
        self.plugin = Plugin("countdown")

    def tearDown(self):
        self.plugin.close()

    def test_counts_down_with_a_relative_date_and_says_now_at_it(self):
        config = {"to": "2025-12-03T00:00:00+00:00", "label": "X"}
        reply = self.plugin.ask("timeline", configuration=config)
        ticking, done = reply["entries"]
        self.assertEqual(ticking["relative"], 1764720000.0)
        self.assertEqual(done, {"date": 1764720000.0, "text": "X now!", "urgent": True})

    def test_a_past_date_shows_now(self):
        reply = self.plugin.ask("timeline", configuration={"to": "2020-01-01T00:00:00+00:00", "label": "X"})
        self.assertEqual([entry["text"] for entry in reply["entries"]], ["X now!"])

    def test_a_click_logs_and_gets_an_empty_reply(self):
        self.plugin.next_id += 1
        request = dict(type="intent", id=self.plugin.next_id, instance="w", family="systemSmall",
                       configuration={"to": "2027-01-01", "label": "X"}, now=0, time_zone="UTC", current=None,
                       intent="announce", parameters={}, click={"button": "left"})
        self.plugin.process.stdin.write(json.dumps(request) + "\n")
        self.plugin.process.stdin.flush()
        log = self.plugin.read()
        jsonschema.validate(log, schema("log"))
        self.assertEqual(log["message"], "w counts down to 2027-01-01")
        self.assertEqual(self.plugin.read(), {"id": self.plugin.next_id})

    def test_a_bad_date_is_an_error_reply(self):
        reply = self.plugin.ask("timeline", configuration={"to": "someday", "label": "X"})
        self.assertIn("error", reply)


if __name__ == "__main__":
    unittest.main()
