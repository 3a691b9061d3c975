#!/usr/bin/env python3
"""Clicks at a point of a headless Wayland compositor (sway) through the wlr virtual-pointer protocol.

Usage: wayland-click.py X Y WIDTH HEIGHT [BUTTON]   (with WAYLAND_DISPLAY and XDG_RUNTIME_DIR set)

A headless sway has no input devices, so its seat has no pointer and clients never see a click, and
`swaymsg seat - cursor press` changes nothing. A virtual pointer (zwlr_virtual_pointer_manager_v1) is a real
pointer device to sway: it gives the seat its pointer, moves it to (X, Y) of a WIDTH x HEIGHT output and
presses and releases BUTTON (1 left, 2 middle, 3 right). Speaks the Wayland wire protocol directly over the
compositor's socket, so it needs nothing but Python.
"""
import os
import socket
import struct
import sys
import time

BUTTONS = {1: 0x110, 2: 0x112, 3: 0x111}  # BTN_LEFT, BTN_MIDDLE, BTN_RIGHT


def string(text):
    data = text.encode() + b"\0"
    padded = data + b"\0" * (-len(data) % 4)
    return struct.pack("<I", len(data)) + padded


class Connection:
    def __init__(self):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ.get("WAYLAND_DISPLAY", "wayland-0"))
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 2
        self.buffer = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, obj, opcode, payload=b""):
        self.sock.sendall(struct.pack("<II", obj, (8 + len(payload)) << 16 | opcode) + payload)

    def events(self):
        while True:
            while len(self.buffer) >= 8:
                obj, word = struct.unpack("<II", self.buffer[:8])
                size = word >> 16
                if len(self.buffer) < size:
                    break
                yield obj, word & 0xFFFF, self.buffer[8:size]
                self.buffer = self.buffer[size:]
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the compositor closed the connection")
            self.buffer += chunk

    def roundtrip(self, on_event=lambda obj, opcode, body: None):
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))  # wl_display.sync
        for obj, opcode, body in self.events():
            if obj == callback:
                return
            if obj == 1 and opcode == 0:  # wl_display.error
                raise SystemExit("protocol error: %r" % body)
            on_event(obj, opcode, body)


def main():
    x, y, width, height = (int(value) for value in sys.argv[1:5])
    button = BUTTONS[int(sys.argv[5]) if len(sys.argv) > 5 else 1]
    wayland = Connection()
    registry = wayland.new_id()
    wayland.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    globals_ = {}

    def on_global(obj, opcode, body):
        if obj == registry and opcode == 0:
            name, length = struct.unpack("<II", body[:8])
            interface = body[8:8 + length - 1].decode()
            version = struct.unpack("<I", body[8 + (length + 3) // 4 * 4:][:4])[0]
            globals_[interface] = (name, version)

    wayland.roundtrip(on_global)
    for needed in ("wl_seat", "zwlr_virtual_pointer_manager_v1"):
        if needed not in globals_:
            raise SystemExit("the compositor offers no %s" % needed)

    def bind(interface, version):
        new = wayland.new_id()
        name = globals_[interface][0]
        wayland.send(registry, 0, struct.pack("<I", name) + string(interface) + struct.pack("<II", version, new))
        return new

    seat = bind("wl_seat", 1)
    manager = bind("zwlr_virtual_pointer_manager_v1", 1)
    pointer = wayland.new_id()
    wayland.send(manager, 0, struct.pack("<II", seat, pointer))  # create_virtual_pointer
    wayland.roundtrip()
    # Let clients bind the seat's new pointer before it moves.
    time.sleep(0.3)

    def now():
        return int(time.monotonic() * 1000) & 0xFFFFFFFF

    wayland.send(pointer, 1, struct.pack("<IIIII", now(), x, y, width, height))  # motion_absolute
    wayland.send(pointer, 4)  # frame
    wayland.roundtrip()
    time.sleep(0.1)
    for state in (1, 0):
        wayland.send(pointer, 2, struct.pack("<III", now(), button, state))  # button
        wayland.send(pointer, 4)  # frame
        wayland.roundtrip()
        time.sleep(0.05)
    wayland.send(pointer, 8)  # destroy
    wayland.roundtrip()


if __name__ == "__main__":
    main()
