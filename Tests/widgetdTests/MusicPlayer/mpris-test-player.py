#!/usr/bin/python3
"""A test MPRIS player on the session bus DBUS_SESSION_BUS_ADDRESS names (the music kind's tests).

It owns org.mpris.MediaPlayer2.<name>, answers Get and GetAll of org.mpris.MediaPlayer2.Player (Metadata,
PlaybackStatus, Position, Rate), emits PropertiesChanged and Seeked, and appends each call of PlayPause, Next and
Previous to the file --calls names, a line each. PlayPause also toggles its status, as a player would.

Commands, one a line on standard input:
    track TITLE|ARTIST|ALBUM|LENGTH_SECONDS   a new track (position 0), announced by PropertiesChanged
    status Playing|Paused|Stopped             announced by PropertiesChanged
    seek SECONDS                              the position, announced by Seeked
    quit                                      gives up the name and exits
It makes the file --ready names once it owns its name.
"""
import argparse
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"
PATH = "/org/mpris/MediaPlayer2"


class Player(dbus.service.Object):
    def __init__(self, bus, name, calls):
        self.bus_name = dbus.service.BusName("org.mpris.MediaPlayer2." + name, bus)
        super().__init__(bus, PATH)
        self.calls = calls
        self.status = "Stopped"
        self.metadata = dbus.Dictionary({}, signature="sv")
        self.position = 0  # microseconds at self.anchor
        self.anchor = time.monotonic()

    def current_position(self):
        if self.status == "Playing":
            return self.position + int((time.monotonic() - self.anchor) * 1_000_000)
        return self.position

    def set_position(self, microseconds):
        self.position = microseconds
        self.anchor = time.monotonic()

    def properties(self):
        return {
            "PlaybackStatus": dbus.String(self.status),
            "Metadata": self.metadata,
            "Position": dbus.Int64(self.current_position()),
            "Rate": dbus.Double(1.0),
            "CanPlay": True, "CanPause": True, "CanGoNext": True, "CanGoPrevious": True, "CanControl": True,
        }

    def announce(self, changed):
        self.PropertiesChanged(PLAYER, changed, dbus.Array([], signature="s"))

    def record(self, call):
        with open(self.calls, "a") as calls:
            calls.write(call + "\n")

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.properties()[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties() if interface == PLAYER else {}

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.signal(PLAYER, signature="x")
    def Seeked(self, position):
        pass

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.record("PlayPause")
        self.set_status("Paused" if self.status == "Playing" else "Playing")

    @dbus.service.method(PLAYER)
    def Next(self):
        self.record("Next")

    @dbus.service.method(PLAYER)
    def Previous(self):
        self.record("Previous")

    def set_status(self, status):
        self.set_position(self.current_position())
        self.status = status
        self.announce({"PlaybackStatus": dbus.String(status)})

    def command(self, line):
        word, _, rest = line.strip().partition(" ")
        if word == "track":
            title, artist, album, length = rest.split("|")
            self.metadata = dbus.Dictionary({
                "mpris:trackid": dbus.ObjectPath("/org/mpris/MediaPlayer2/track/1"),
                "xesam:title": dbus.String(title),
                "xesam:artist": dbus.Array([artist], signature="s"),
                "xesam:album": dbus.String(album),
                "mpris:length": dbus.Int64(int(float(length) * 1_000_000)),
            }, signature="sv")
            self.set_position(0)
            self.announce({"Metadata": self.metadata})
        elif word == "status":
            self.set_status(rest)
        elif word == "seek":
            self.set_position(int(float(rest) * 1_000_000))
            self.Seeked(dbus.Int64(self.position))
        elif word == "quit":
            return False
        return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="testplayer")
    parser.add_argument("--calls", required=True)
    parser.add_argument("--ready", help="a file made once the name is owned")
    arguments = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    player = Player(bus, arguments.name, arguments.calls)
    loop = GLib.MainLoop()

    pending = b""

    def on_input(source, condition):
        # os.read, not readline: a buffered reader would keep a second line the watch is never told of again.
        nonlocal pending
        chunk = os.read(0, 4096)
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if not player.command(line.decode()):
                loop.quit()
                return False
        if not chunk:
            loop.quit()
            return False
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_input)
    if arguments.ready:
        open(arguments.ready, "w").close()
    loop.run()


if __name__ == "__main__":
    main()
