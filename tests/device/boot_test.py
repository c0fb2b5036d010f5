#!/usr/bin/env python3
"""ChessPI's device test: boots the device system (scripts/device-image) in QEMU
(scripts/device-run) and uses it as a person would, through QMP only: looks at the KMS screen
(screendump), touches it (virtio-multitouch events). The serial console's root shell
(chesspi.test_console) is used only to read what the system says about itself (journal, unit
state, processes), to load the display driver late, in the battery step to set up the
emulated GPIO and write the comparators' levels into its registers, and in the wifi-card step
to run simulated radios and an access point.

Run by scripts/test-device; Python 3 standard library only. Pictures go to
target/device/test/. Exit status 0 when every check passed.
"""

import json
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEVICE = os.path.join(ROOT, "target", "device")
OUT = os.path.join(DEVICE, "test")

BOARD = 480  # the board: 8 x 60 px squares at the top left of the 800x480 screen
SQUARE = 60
# How long the board may take to appear after QEMU starts: 38 s on the 2 shared cores at load
# average 4, 94 s at load 8, over 135 s at load 10.
BOOT_PATIENCE = int(os.environ.get("CHESSPI_BOOT_PATIENCE", "300"))
results = []
RUNNING = []  # every QEMU started, killed at the end whatever happened


def log(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def check(name, ok, detail=""):
    results.append((name, ok, detail))
    log(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    return ok


# --- PNG (8-bit RGB/RGBA, not interlaced: what QEMU and the app write) ------------------------

def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (path, depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    # RGB only, as one row list.
    pixels = [bytes(r[j] for j in range(len(r)) if j % channels < 3) for r in rows] \
        if channels == 4 else rows
    return width, height, pixels


def square_box(name, flipped=False):
    file, rank = ord(name[0]) - ord("a"), int(name[1]) - 1
    col, row = (7 - file, rank) if flipped else (file, 7 - rank)
    return col * SQUARE, row * SQUARE


def square_pixels(png, name):
    _, _, rows = png
    x0, y0 = square_box(name)
    return [rows[y][x0 * 3:(x0 + SQUARE) * 3] for y in range(y0, y0 + SQUARE)]


def diff(a, b):
    """Mean absolute difference per channel of two equal pixel blocks (lists of rows)."""
    total = count = 0
    for ra, rb in zip(a, b):
        total += sum(abs(x - y) for x, y in zip(ra, rb))
        count += len(ra)
    return total / max(count, 1)


def board_diff(a, b):
    return diff([r[:BOARD * 3] for r in a[2][:BOARD]], [r[:BOARD * 3] for r in b[2][:BOARD]])


SQUARES = [f + r for f in "abcdefgh" for r in "12345678"]


def changed_squares(a, b, limit=4.0):
    return [s for s in SQUARES if diff(square_pixels(a, s), square_pixels(b, s)) > limit]


# --- QEMU --------------------------------------------------------------------------------------

class Qmp:
    def __init__(self, path):
        deadline = time.time() + 30
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.sock.settimeout(60)
        self.file = self.sock.makefile("rw")
        json.loads(self.file.readline())  # greeting
        self.call("qmp_capabilities")

    def call(self, command, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg) + "\n")
        self.file.flush()
        while True:
            answer = json.loads(self.file.readline())
            if "return" in answer:
                return answer["return"]
            if "error" in answer:
                raise RuntimeError(f"{command}: {answer['error']}")

    def screendump(self, path):
        self.call("screendump", filename=path, format="png")
        return read_png(path)

    def touch(self, points, tracking_id):
        """One finger: down at the first point, moved through the others, lifted."""
        def pos(x, y):
            return [
                {"type": "mtt", "data": {"type": "data", "slot": 0, "tracking-id": tracking_id,
                                         "axis": "x", "value": int(x * 32767 / 799)}},
                {"type": "mtt", "data": {"type": "data", "slot": 0, "tracking-id": tracking_id,
                                         "axis": "y", "value": int(y * 32767 / 479)}},
            ]
        x, y = points[0]
        down = [{"type": "mtt", "data": {"type": "begin", "slot": 0, "tracking-id": tracking_id,
                                         "axis": "x", "value": 0}}]
        self.call("input-send-event", events=down + pos(x, y) + [
            {"type": "btn", "data": {"button": "touch", "down": True}}])
        for x, y in points[1:]:
            time.sleep(0.05)
            self.call("input-send-event", events=pos(x, y))
        time.sleep(0.08)
        self.call("input-send-event", events=[
            {"type": "mtt", "data": {"type": "end", "slot": 0, "tracking-id": -1,
                                     "axis": "x", "value": 0}},
            {"type": "btn", "data": {"button": "touch", "down": False}}])


def centre(name):
    x, y = square_box(name)
    return x + SQUARE // 2, y + SQUARE // 2


class Console:
    """The serial console: everything it says goes to a log file (read all the time: QEMU
    stops the whole machine when nobody reads), and its root shell runs commands."""

    def __init__(self, path, log_path):
        deadline = time.time() + 30
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.buffer = b""
        self.everything = b""  # the last MB of all output, for waiting on boot messages
        self.answered = False  # the shell has answered once
        self.lock = threading.Lock()
        self.log = open(log_path, "ab", buffering=0)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            self.log.write(chunk)
            with self.lock:
                self.buffer = (self.buffer + chunk)[-1_000_000:]
                self.everything = (self.everything + chunk)[-1_000_000:]

    def wait_for(self, pattern, timeout):
        """Waits until the console has printed something matching `pattern` (a regex)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                text = self.everything.decode(errors="replace")
            if re.search(pattern, text):
                return True
            time.sleep(0.2)
        return False

    def send(self, text):
        self.sock.sendall(text.encode())

    def wait_for_shell(self, timeout=180):
        """Waits until the root shell answers. systemd's "Started chesspi-test-console" is no
        sign: plymouth tells systemd to stop printing its status (SIGRTMIN+21), so with the boot
        screen on that line never comes although the shell runs. Lines sent before the shell
        reads them are lost or answered late, and either is harmless."""
        deadline = time.time() + timeout
        while not self.answered:
            tag = f"{random.getrandbits(32):08x}"
            self.send(f"echo R'{tag}'\n")
            if self.wait_for(f"R{tag}\r?\n", 3):
                self.answered = True
            elif time.time() > deadline:
                raise TimeoutError("the serial console's shell did not answer")

    def run(self, command, timeout=60):
        self.wait_for_shell()
        tag = f"{random.getrandbits(32):08x}"
        # The markers are split by quotes so the terminal's echo of the command never matches.
        line = f"echo B'{tag}'; {command}; echo E'{tag}' $?\n"
        with self.lock:
            self.buffer = b""
        deadline = time.time() + timeout
        sent_at = 0.0
        while True:
            with self.lock:
                text = self.buffer.decode(errors="replace")
            start, end = text.rfind(f"B{tag}\r\n"), text.rfind(f"E{tag} ")
            if start < 0 and time.time() - sent_at > 15:
                self.send(line)  # the shell was not there yet: ask again
                sent_at = time.time()
            time.sleep(0.2)
            if start >= 0 and end > start:
                rest = text[end + len(f"E{tag} "):]
                if "\n" in rest:
                    out = text[start + len(tag) + 3:end].replace("\r", "")
                    return int(rest.split()[0]), out
            if time.time() > deadline:
                raise TimeoutError(f"no answer to {command!r}: {text[-2000:]}")


class Device:
    """One guest: scripts/device-run with `extra` arguments; its sockets, logs and pictures
    in `out` (default OUT)."""

    def __init__(self, disk, name, append=None, extra=(), out=None):
        # Plymouth on, leaving the serial console alone as the Pi's cmdline.txt says (without
        # the Pi's `splash`: its text mode on the virtual display), unless a stage asks for
        # other kernel arguments (the late-drm stages: see LATE_DRM_APPEND).
        if append is None:
            append = "plymouth.ignore-serial-consoles"
        self.name = name
        self.out = out or OUT
        self.qmp_path = os.path.join(self.out, f"{name}.qmp")
        self.serial_path = os.path.join(self.out, f"{name}.serial")
        for p in (self.qmp_path, self.serial_path):
            if os.path.exists(p):
                os.unlink(p)
        self.started = time.time()
        RUNNING.append(self)
        self.proc = subprocess.Popen(
            [os.path.join(ROOT, "scripts", "device-run"), "--qmp", self.qmp_path,
             "--serial", self.serial_path, "--disk", disk, "--append", append, *extra],
            stdout=open(os.path.join(self.out, f"{name}.qemu.log"), "w"),
            stderr=subprocess.STDOUT)
        self.qmp = Qmp(self.qmp_path)
        self.console = Console(self.serial_path, os.path.join(self.out, f"{name}.console.log"))

    def shot(self, label):
        return self.qmp.screendump(os.path.join(self.out, f"{self.name}-{label}.png"))

    def wait_for_screen(self, reference, label, patience=BOOT_PATIENCE, limit=3.0):
        """Screendumps until the board matches `reference`; returns (seconds since start, png)."""
        deadline = time.time() + patience
        best = None
        while time.time() < deadline:
            try:
                png = self.shot(label)
                d = board_diff(png, reference)
                best = d if best is None else min(best, d)
                if d <= limit:
                    return time.time() - self.started, png
            except (RuntimeError, AssertionError):
                pass  # no picture yet (the guest has not set a mode)
            time.sleep(0.5)
        return None, best

    def sh(self, command, timeout=60):
        return self.console.run(command, timeout)

    def kill(self):
        self.proc.kill()
        self.proc.wait()

    def wait_off(self, timeout):
        try:
            self.proc.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            return False


def reference(name, taps=()):
    path = os.path.join(OUT, f"reference-{name}.png")
    args = [HOST_APP, "--screenshot", path]
    for t in taps:
        args += ["--tap", t]
    subprocess.run(args, check=True, capture_output=True)
    return read_png(path)


def chain_without_network(chain):
    """`systemd-analyze critical-chain chesspi.service` names the unit and nothing of the
    network. The unit's own line is "chesspi.service @T" or, when its start took time
    (plymouth quitting in ExecStartPre), "chesspi.service +D"."""
    return (re.search(r"(?m)^chesspi\.service [@+]", chain) is not None
            and "network" not in chain)


def service_state(dev):
    """The unit's properties that tell whether its start went well, as a dict."""
    _, out = dev.sh("systemctl show chesspi -p NRestarts -p ActiveState -p SubState "
                    "-p ExecMainStatus -p Result")
    return dict(line.split("=", 1) for line in out.split() if "=" in line)


def first_start_ok(state):
    return state.get("NRestarts") == "0" and state.get("ActiveState") == "active"


def journal_grep(dev, pattern):
    """The service's journal lines matching `pattern` (kernel messages on the console that
    interleave with the answer are left out: each journal line is marked)."""
    _, out = dev.sh(f"journalctl -b -u chesspi --no-pager -o cat | grep -iE '{pattern}'"
                    " | sed 's/^/J| /' || true")
    return "\n".join(line[3:] for line in out.splitlines() if line.startswith("J| ")).strip()


def journal_denials(dev):
    """The service journal's denials, less the first failed attempt of the app's wait for its
    display (src/app/display.rs): with the DRM driver probing late under load, the device node
    can exist before udev has given it to the render group (EACCES, not the unit's device
    policy). That attempt only counts as a wait if the app then says the display is ready
    (before any failure: the masked-modprobe control still shows its denials)."""
    _, out = dev.sh("journalctl -b -u chesspi --no-pager -o cat | sed 's/^/J| /'")
    text = "\n".join(line[3:] for line in out.splitlines() if line.startswith("J| "))
    waited = re.search(r"the display is not ready \(.*?\); waiting up to", text, re.S)
    if waited:
        # Only a wait that this run of the app ended with its display, not with an error.
        rest = text[waited.end():]
        ready, failed = rest.find("the display is ready after"), rest.find("cannot open")
        if ready >= 0 and (failed < 0 or ready < failed):
            text = text[:waited.start()] + text[waited.end():]
    return "\n".join(line for line in text.splitlines()
                     if re.search(r"denied|not permitted|cannot open the display", line, re.I))


def play(start_ref, pawn_light, empty_dark, timings):
    """Boots, plays by touch, cuts the power, boots again, stops the service."""
    disk = os.path.join(OUT, "disk.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)

    # 1. First boot: the board on the KMS screen, as the app's own renderer draws it.
    dev = Device(disk, "boot1")
    took, png = dev.wait_for_screen(start_ref, "board")
    check("board on the KMS screen matches the app's headless picture", took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest board difference {png}")
    if took is None:
        dev.kill()
        return
    timings["board_after_s"] = round(took, 1)

    # 2. A move by touch: e2, then e4; the computer answers.
    dev.qmp.touch([centre("e2")], 1)
    time.sleep(0.4)
    dev.qmp.touch([centre("e4")], 2)
    deadline, answered, png = time.time() + 30, False, None
    while time.time() < deadline and not answered:
        time.sleep(0.5)
        png = dev.shot("after-e4")
        black = [s for s in changed_squares(start_ref, png) if s[1] in "5678"]
        answered = diff(square_pixels(png, "e4"), pawn_light) < 3 and len(black) >= 2
    check("e2-e4 by touch is on the screen, and the computer's reply", answered,
          f"changed: {changed_squares(start_ref, png)}")
    before_drag = png
    # A drag: d2 to d4 in one gesture.
    points = [centre("d2")] + [(centre("d2")[0], centre("d2")[1] - 12 * i) for i in range(1, 11)]
    dev.qmp.touch(points, 3)
    time.sleep(2)
    png = dev.shot("after-drag")
    check("a drag d2-d4 moves the pawn", diff(square_pixels(png, "d2"), empty_dark) < 3,
          f"changed since the reply: {changed_squares(before_drag, png)}")
    time.sleep(3)  # the computer's reply

    # 6. The service: its user, its first start, nothing denied, the security rating.
    status, out = dev.sh("ps -o user= -C chesspi")
    check("the app runs as chesspi", out.strip() == "chesspi", out.strip())
    state = service_state(dev)
    check("first start succeeded (NRestarts=0)", first_start_ok(state), str(state))
    denials = journal_denials(dev)
    check("nothing denied in the service's journal", denials == "", denials)
    _, security = dev.sh("systemd-analyze security chesspi --no-pager | tail -n 1")
    _, chain = dev.sh("systemd-analyze critical-chain chesspi.service --no-pager")
    # The image brings up Ethernet (systemd-networkd): the board must not wait for it.
    check("nothing of the network in chesspi.service's critical chain",
          chain_without_network(chain), chain.strip()[-400:])
    _, blame = dev.sh("systemd-analyze --no-pager | head -n 1")
    _, memory = dev.sh("ps -o rss= -C chesspi")
    # Idle CPU: the app's user+system ticks (100 a second) over 20 s with nobody touching it.
    _, ticks = dev.sh("p=$(pidof chesspi); a=$(cut -d' ' -f14,15 /proc/$p/stat | tr ' ' +);"
                      " sleep 20; b=$(cut -d' ' -f14,15 /proc/$p/stat | tr ' ' +);"
                      " echo $(( (b) - (a) ))")
    idle_cpu = int(ticks.split()[-1]) / 20  # percent of one core
    timings.update(rss_kb=int(memory.split()[0]), idle_cpu_percent=idle_cpu)
    with open(os.path.join(OUT, "boot1-system.txt"), "w") as f:
        f.write(f"{security}\n{chain}\n{blame}\nrss_kb: {memory}\nidle cpu %: {idle_cpu}\n")
    log(f"security: {security.strip()}; rss {memory.strip()} kB; idle CPU {idle_cpu} %")

    # 4. Power cut in the middle of the game: the same position after the next boot.
    on_screen = dev.shot("before-cut")
    dev.kill()
    dev = Device(disk, "boot2")
    took, png = dev.wait_for_screen(on_screen, "after-cut")
    check("after a power cut the same position is on the screen", took is not None,
          f"{took:.1f} s" if took else f"closest difference {png}")
    timings["board_after_cut_s"] = round(took, 1) if took else None

    # More cuts at random moments of the next boots (kernel, services, the app restoring and
    # saving the game it starts with), then the same position once more, nothing refused.
    cuts = int(os.environ.get("CHESSPI_CUTS", "3"))
    seed = int(os.environ.get("CHESSPI_CUT_SEED", str(random.randrange(1 << 30))))
    rng = random.Random(seed)
    moments = [round(rng.uniform(5, 75), 1) for _ in range(cuts)]
    log(f"power cuts at {moments} s after QEMU starts (CHESSPI_CUT_SEED={seed})")
    for i, moment in enumerate(moments):
        dev.kill()
        dev = Device(disk, f"cut{i + 1}")
        time.sleep(max(0.0, moment - (time.time() - dev.started)))
    dev.kill()
    dev = Device(disk, "boot3")
    took, png = dev.wait_for_screen(on_screen, "after-cuts")
    refused = journal_grep(dev, "refused|set aside|cannot be read|damaged")
    check(f"after {cuts} more cuts at random moments, the same position, nothing refused",
          took is not None and refused == "",
          (f"{took:.1f} s" if took else f"closest difference {png}") + f"; {refused}")

    # SIGTERM on the device: the unit stops the app cleanly (exit 0, "stopping" in the log).
    dev.sh("systemctl stop chesspi")
    _, out = dev.sh("journalctl -b -u chesspi --no-pager -o cat | tail -n 8")
    state = service_state(dev)
    check("systemctl stop: the app says it stops and exits 0",
          "SIGTERM received: stopping" in out and "ChessPI stopped" in out
          and state.get("ExecMainStatus") == "0" and state.get("Result") == "success",
          f"{state} / {out.strip()[-300:]}")
    dev.console.send("poweroff\n")
    check("poweroff from the console ends QEMU", dev.wait_off(60))
    if dev.proc.poll() is None:
        dev.kill()



def mask(disk, path):
    """Masks a unit in a disk image (a symlink to /dev/null), without mounting it."""
    subprocess.run(["debugfs", "-w", "-R", f"symlink {path} /dev/null", disk], check=True,
                   capture_output=True)


# The display driver held back, and plymouth off: with no display at boot, the test's serial
# shell never answered in one boot of two with plymouth on, with or without
# plymouth.ignore-serial-consoles, although it had started after plymouth quit (the journal of
# those boots; cause inside plymouth not found). These stages are about the app and its unit
# meeting a late display, not about the boot screen.
LATE_DRM_APPEND = "plymouth.enable=0 modprobe.blacklist=virtio_gpu"


def late_drm(start_ref, timings):
    """The DRM driver loaded late: the service starts before the display exists, waits for
    it, and its first start succeeds (issue 18: without the fix, 'Operation not permitted')."""
    disk = os.path.join(OUT, "disk-late.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    # systemd-logind also loads the DRM core (modprobe@drm.service) and would hide a unit
    # that forgot to: without logind only chesspi.service's own dependency loads it.
    mask(disk, "/etc/systemd/system/systemd-logind.service")
    dev = Device(disk, "late-drm", append=LATE_DRM_APPEND)
    _, out = dev.sh("for i in $(seq 120); do systemctl is-active -q chesspi && break; sleep 0.5; done;"
                    " ls /dev/dri 2>&1; grep -w drm /proc/devices; systemctl is-active chesspi", timeout=180)
    check("the service ran before the display driver loaded, the DRM core already there",
          "No such file" in out and re.search(r"^226 drm", out, re.M) is not None
          and out.strip().endswith("active"), out.strip())
    time.sleep(3)
    dev.sh("modprobe virtio_gpu")
    took, png = dev.wait_for_screen(start_ref, "late-drm", patience=180)
    check("with the driver loaded late the board appears", took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest difference {png}")
    state = service_state(dev)
    check("late driver: first start succeeded (NRestarts=0)", first_start_ok(state), str(state))
    denials = journal_denials(dev)
    check("late driver: nothing denied", denials == "", denials)
    waited = journal_grep(dev, "display")
    check("the app waited for its display instead of exiting",
          "not ready" in waited and "ready after" in waited, waited.strip())
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


def power_key(start_ref, pawn_light, timings):
    """The power key (KEY_POWER on the virtio keyboard): the app asks, the Shut down button
    powers the device off through logind and polkit, and the game is there at the next boot.
    logind must leave the key to the app (the package's logind.conf.d drop-in): by default it
    powers off at once, under the app's dialog."""
    disk = os.path.join(OUT, "disk-power.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    dev = Device(disk, "power")
    took, _ = dev.wait_for_screen(start_ref, "board")
    if not check("power key: the board is on the screen", took is not None):
        return
    dev.qmp.touch([centre("e2")], 1)
    time.sleep(0.4)
    dev.qmp.touch([centre("e4")], 2)
    time.sleep(8)  # the computer's reply
    before = dev.shot("before-key")
    for down in (True, False):
        dev.qmp.call("input-send-event", events=[
            {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": "power"}}}])
    time.sleep(3)
    dialog = dev.shot("dialog")
    # The red "Shut down" button, wherever the dialog puts it.
    button = red_button(dialog)
    check("power key: the app asks before shutting down (logind leaves the key alone)",
          dev.proc.poll() is None and board_diff(dialog, before) > 30 and button is not None,
          f"the red button at {button}")
    dev.qmp.touch([button or (256, 130)], 3)
    started = time.time()
    check("power key: Shut down powers the device off", dev.wait_off(90),
          f"{time.time() - started:.1f} s")
    if dev.proc.poll() is None:
        dev.kill()
    dev = Device(disk, "power-again")
    took, png = dev.wait_for_screen(before, "after")
    check("power key: the game is there at the next boot", took is not None,
          f"closest difference {png}" if took is None else f"{took:.1f} s")
    dev.kill()


# --- The battery through rppal on the device --------------------------------------------------

# What the guest needs for the app's `gpio` source to run rppal's own code against emulated
# BCM2837 registers (PLATFORM-NOTES, "rppal without a Pi"); written into the test's copy of the
# disk only, and switched on by a runtime drop-in (/run: gone at the next boot).
BATTERY_DIR = "/usr/local/lib/chesspi-battery-test"
BATTERY_GRACE_S = 15
BATTERY_CONFIG = f"""# scripts/test-device's battery step: the gpio source, quick to follow the test
[battery]
source = "gpio"
poll_interval_ms = 200
debounce_ms = 500
rise_delay_seconds = 0
critical_grace_seconds = {BATTERY_GRACE_S}

[battery.gpio]
full = {{ pin = 5, active = "high", pull = "off" }}
above_two_thirds = {{ pin = 6, active = "high", pull = "off" }}
above_one_third = {{ pin = 13, active = "high", pull = "off" }}
above_cutoff = {{ pin = 19, active = "high", pull = "off" }}
"""
# Only what the emulation needs, on top of the product's unit: the test's config; the shim
# answering rppal's gpiochip query (the virt kernel has no GPIO subsystem); a Pi 3 B's
# /proc/cpuinfo, from which rppal identifies the board. The registers are a regular file at
# /dev/gpiomem (not a device node: DevicePolicy= does not apply to it).
BATTERY_DROP_IN = f"""[Service]
ExecStart=
ExecStart=/usr/bin/chesspi --config {BATTERY_DIR}/chesspi.toml
Environment=LD_PRELOAD={BATTERY_DIR}/gpiochip-shim.so
BindReadOnlyPaths={BATTERY_DIR}/cpuinfo:/proc/cpuinfo
"""
BATTERY_CPUINFO = ("processor\t: 0\nHardware\t: BCM2835\nRevision\t: a02082\n"
                   "Model\t\t: Raspberry Pi 3 Model B Rev 1.2\n")
# GPLEV0 (offset 0x34) for each level: the comparators on BCM 5 (4.1 V), 6 (3.7 V), 13 (3.3 V)
# and 19 (3.0 V), active high; the icon's fill colour at that level.
BATTERY_LEVELS = [
    ("full", (1 << 5) | (1 << 6) | (1 << 13) | (1 << 19), "accent"),
    ("high", (1 << 6) | (1 << 13) | (1 << 19), "accent"),
    ("medium", (1 << 13) | (1 << 19), "accent"),
    ("low", 1 << 19, "warning"),
    ("critical", 0, "danger"),
]
THEME = {"accent": (91, 180, 80), "warning": (224, 165, 38), "danger": (217, 83, 79)}
STATUS_BAR = 26  # the side panel's status bar: the top 26 px right of the board


def red_button(png):
    """The centre of the largest red area (a danger button such as Shut down), or None."""
    rows = png[2]
    hits = [(x, y) for y in range(0, len(rows), 4) for x in range(0, 800, 4)
            if rows[y][x * 3] > 180 and rows[y][x * 3 + 1] < 130 and rows[y][x * 3 + 2] < 130]
    if len(hits) < 50:  # a button is about 270x50 px: some 800 samples
        return None
    xs, ys = sorted(h[0] for h in hits), sorted(h[1] for h in hits)
    return xs[len(xs) // 2], ys[len(ys) // 2]


def near(pixel, colour, tolerance=30):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def battery_icon(png):
    """The battery icon's fill in the status bar: (width in px, colour name), or None."""
    _, _, rows = png
    columns = {}
    for y in range(STATUS_BAR):
        row = rows[y]
        for x in range(BOARD, 800):
            pixel = row[x * 3:x * 3 + 3]
            for name, colour in THEME.items():
                if near(pixel, colour):
                    columns.setdefault(x, []).append(name)
    filled = [x for x, names in columns.items() if len(names) >= 2]
    if not filled:
        return None
    names = [n for x in filled for n in columns[x]]
    return max(filled) - min(filled) + 1, max(set(names), key=names.count)


def icon_pixels(png):
    _, _, rows = png
    return [r[(800 - 60) * 3:] for r in rows[:STATUS_BAR]]


def notice_pixels(png, colour):
    """Pixels of a notice bar's colour in the side panel below its status bar."""
    _, _, rows = png
    return sum(1 for y in range(STATUS_BAR, 480) for x in range(BOARD, 800)
               if near(rows[y][x * 3:x * 3 + 3], THEME[colour], 12))


def battery_overlay(disk):
    """Writes the shim (built for aarch64), the Pi's cpuinfo, the config and the drop-in into
    BATTERY_DIR on the disk copy, without mounting it."""
    files = os.path.join(OUT, "battery-files")
    os.makedirs(files, exist_ok=True)
    subprocess.run([os.environ.get("CHESSPI_AARCH64_CC", "aarch64-linux-gnu-gcc"), "-shared",
                    "-fPIC", "-O2", "-Wall", "-o", os.path.join(files, "gpiochip-shim.so"),
                    os.path.join(ROOT, "tests", "bcm2837_emulator", "shim.c"), "-ldl"],
                   check=True)
    for name, text in (("cpuinfo", BATTERY_CPUINFO), ("chesspi.toml", BATTERY_CONFIG),
                       ("battery-test.conf", BATTERY_DROP_IN)):
        with open(os.path.join(files, name), "w") as f:
            f.write(text)
    commands = [f"mkdir {BATTERY_DIR}"] + [
        f"write {os.path.join(files, n)} {BATTERY_DIR}/{n}"
        for n in ("gpiochip-shim.so", "cpuinfo", "chesspi.toml", "battery-test.conf")]
    script = os.path.join(files, "debugfs.cmd")
    with open(script, "w") as f:
        f.write("\n".join(commands) + "\n")
    subprocess.run(["debugfs", "-w", "-f", script, disk], check=True, capture_output=True)


def set_levels(dev, bits):
    """Writes GPLEV0 in the register file, as the comparators would drive the pins."""
    data = "".join(f"\\x{b:02x}" for b in bits.to_bytes(4, "little"))
    dev.sh(f"printf '{data}' | dd of=/dev/gpiomem bs=1 seek=52 count=4 conv=notrunc status=none")


def battery(start_ref, timings):
    """The app's gpio source through rppal in the booted device: the icon follows the
    comparators down to critical, the red notice, the shutdown by itself with the game saved."""
    disk = os.path.join(OUT, "disk-battery.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    battery_overlay(disk)
    dev = Device(disk, "battery")
    took, _ = dev.wait_for_screen(start_ref, "board")
    if not check("battery: the board is on the screen", took is not None,
                 f"{took:.1f} s after QEMU started" if took else ""):
        dev.kill()
        return
    dev.qmp.touch([centre("e2")], 1)
    time.sleep(0.4)
    dev.qmp.touch([centre("e4")], 2)
    time.sleep(8)  # the computer's reply
    before = dev.shot("before-battery")
    hidden = battery_icon(before)

    # The registers (the full level on the comparators), the chip, the drop-in; a restart.
    full = BATTERY_LEVELS[0][1]
    dev.sh("head -c 4096 /dev/zero > /dev/gpiomem && : > /dev/gpiochip0"
           " && chown root:gpio /dev/gpiomem /dev/gpiochip0"
           " && chmod 660 /dev/gpiomem /dev/gpiochip0"
           f" && mkdir -p /run/systemd/system/chesspi.service.d"
           f" && cp {BATTERY_DIR}/battery-test.conf /run/systemd/system/chesspi.service.d/")
    set_levels(dev, full)
    drive_pins(dev, full)  # the comparators hold their pins: no pull changes them
    dev.sh("systemctl daemon-reload && systemctl restart chesspi")

    icons, pictures, seen_after = [], [], []
    for i, (name, bits, _) in enumerate(BATTERY_LEVELS):
        if i > 0:
            set_levels(dev, bits)
        changed_at = time.time()
        deadline, icon, png = time.time() + (180 if i == 0 else 30), None, None
        while time.time() < deadline:
            png = dev.shot(name)
            icon = battery_icon(png)
            if icon is not None and (not icons or icon != icons[-1]):
                break
            time.sleep(0.3)
        seen_after.append(round(time.time() - changed_at, 1))
        icons.append(icon)
        pictures.append(png)
        if name == "critical":
            critical_at = changed_at
            if icon is not None:  # the notice may follow the icon by a frame
                time.sleep(1)
                png = dev.shot("critical-notice")
                pictures[-1] = png
    log(f"battery icons (fill width, colour): {icons}; seen after {seen_after} s")
    check("battery: no icon before the gpio source can read (the product's config off a Pi)",
          hidden is None, str(hidden))
    # The journal of the app started with the test's config (the boot's first start, on the
    # product's config, says GPIO is unavailable off a Pi).
    _, said = dev.sh("journalctl --no-pager -o cat _SYSTEMD_INVOCATION_ID=$(systemctl show -p"
                     " InvocationID --value chesspi) | grep -iE 'battery|gpio' | sed 's/^/J| /'")
    said = "\n".join(line[3:] for line in said.splitlines() if line.startswith("J| "))
    denials = journal_denials(dev)
    check("battery: the app's gpio source read the levels through rppal, nothing denied",
          "reading the gpio source" in said and "unavailable" not in said
          and all(f"battery: {n} " in said for n, _, _ in BATTERY_LEVELS) and denials == "",
          f"{said[-600:]}; denied: {denials}")
    widths = [icon[0] if icon else None for icon in icons]
    colours = [icon[1] if icon else None for icon in icons]
    distinct = all(diff(icon_pixels(a), icon_pixels(b)) > 1.0
                   for a, b in zip(pictures, pictures[1:]))
    check("battery: the icon follows the comparators full, high, medium, low, critical",
          None not in widths and all(a > b for a, b in zip(widths, widths[1:]))
          and colours == [c for _, _, c in BATTERY_LEVELS] and distinct,
          f"widths {widths}, colours {colours}")
    amber, red = notice_pixels(pictures[3], "warning"), notice_pixels(pictures[-1], "danger")
    check("battery: the low warning (amber bar), then the critical notice (red bar)",
          amber > 3000 and red > 3000,
          f"{amber} amber pixels at low, {red} red at critical in the side panel")
    off = dev.wait_off(BATTERY_GRACE_S + 120)
    after = time.time() - critical_at
    check(f"battery: the device powers itself off after the {BATTERY_GRACE_S} s grace",
          off and after >= BATTERY_GRACE_S, f"QEMU ended {after:.1f} s after critical")
    timings.update(battery_levels_seen_after_s=seen_after, battery_off_after_critical_s=round(after, 1))
    if not off:
        dev.kill()
        return
    dev = Device(disk, "battery-again")
    took, png = dev.wait_for_screen(before, "after")
    check("battery: after the shutdown the game is there at the next boot", took is not None,
          f"closest difference {png}" if took is None else f"{took:.1f} s")
    # The way down, from the journal of the boot before (kept on the disk): critical, the app
    # runs its shutdown command, then stops under that poweroff, its saves finished.
    _, said = dev.sh("journalctl -b -1 -u chesspi --no-pager -o cat"
                     " | grep -iE 'battery|shutdown|stopp|saves' | tail -n 10 | sed 's/^/J| /'")
    said = [line[3:] for line in said.splitlines() if line.startswith("J| ")]
    order = [next((i for i, line in enumerate(said) if key in line), -1)
             for key in ("battery: critical", "running shutdown command", "SIGTERM received",
                         "ChessPI stopped")]
    check("battery: the shutdown was clean (the app finished its saves and stopped)",
          -1 not in order and order == sorted(order)
          and not any("shutdown failed" in line for line in said), " / ".join(said))
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


# The bare-pi stage: the product's unit and config (the gpio source, pulls off) with only what
# the emulation needs added; the register file left at zero, so nothing drives the comparator
# pins (DRIVEN_MASK 0) and they follow the pulls the source sets, through the shim's pull latch.
BARE_PI_DROP_IN = f"""[Service]
Environment=LD_PRELOAD={BATTERY_DIR}/gpiochip-shim.so
BindReadOnlyPaths={BATTERY_DIR}/cpuinfo:/proc/cpuinfo
"""
BARE_PI_SHIPPED_GRACE_S = 30  # config/chesspi.toml's critical_grace_seconds
BARE_PI_WATCH_S = 60  # how long the device must stay on after the source gave up


def drive_pins(dev, mask):
    """Marks pins as driven by the comparators (DRIVEN_MASK, 0x900 in the register file): the
    shim's pull latch leaves their GPLEV0 bits as set_levels wrote them."""
    data = "".join(f"\\x{b:02x}" for b in mask.to_bytes(4, "little"))
    dev.sh(f"printf '{data}' | dd of=/dev/gpiomem bs=1 seek={0x900} count=4 conv=notrunc"
           " status=none")


def bare_pi_overlay(disk):
    """battery_overlay's files, and the bare-pi drop-in next to them."""
    battery_overlay(disk)
    files = os.path.join(OUT, "battery-files")
    with open(os.path.join(files, "bare-pi.conf"), "w") as f:
        f.write(BARE_PI_DROP_IN)
    script = os.path.join(files, "debugfs-bare-pi.cmd")
    with open(script, "w") as f:
        f.write(f"write {os.path.join(files, 'bare-pi.conf')} {BATTERY_DIR}/bare-pi.conf\n")
    subprocess.run(["debugfs", "-w", "-f", script, disk], check=True, capture_output=True)


def bare_pi(start_ref, timings):
    """A Pi without the battery board: the gpio source through rppal over emulated registers
    whose comparator pins nobody drives. Pulled up and then down they follow the pulls: the
    notice "No battery board found", no icon, and no shutdown, long after the critical grace."""
    disk = os.path.join(OUT, "disk-bare-pi.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    bare_pi_overlay(disk)
    dev = Device(disk, "bare-pi")
    took, _ = dev.wait_for_screen(start_ref, "board")
    if not check("bare-pi: the board is on the screen", took is not None,
                 f"{took:.1f} s after QEMU started" if took else ""):
        dev.kill()
        return
    # The registers all zero (no pin driven, every pull off), the chip, the drop-in; a restart
    # of the product's unit with its own config.
    dev.sh("head -c 4096 /dev/zero > /dev/gpiomem && : > /dev/gpiochip0"
           " && chown root:gpio /dev/gpiomem /dev/gpiochip0"
           " && chmod 660 /dev/gpiomem /dev/gpiochip0"
           " && mkdir -p /run/systemd/system/chesspi.service.d"
           f" && cp {BATTERY_DIR}/bare-pi.conf /run/systemd/system/chesspi.service.d/")
    _, shipped = dev.sh("grep -E '^(source|critical_grace_seconds|full|above_[a-z_]+) ='"
                        " /etc/chesspi/chesspi.toml | sed 's/^/C| /'")
    shipped = [line[3:] for line in shipped.splitlines() if line.startswith("C| ")]
    dev.sh("systemctl daemon-reload && systemctl restart chesspi")
    restarted = time.time()

    # The notice is news (the amber bar, shown for 6 s); the icon must never show.
    icons, notice_at, amber = [], None, 0
    while time.time() < restarted + 180:
        png = dev.shot("after-restart")
        icon = battery_icon(png)
        if icon is not None:
            icons.append(icon)
        amber = notice_pixels(png, "warning")
        if amber > 3000:
            notice_at = time.time() - restarted
            dev.shot("notice")
            break
        time.sleep(0.3)
    _, invocation = dev.sh("systemctl show -p InvocationID --value chesspi | sed 's/^/I| /'")
    invocation = next((line[3:].strip() for line in invocation.splitlines()
                       if line.startswith("I| ")), "")

    # (c) On past the critical grace: still running, the same start of the app, no icon.
    gave_up = time.time()
    while time.time() < gave_up + BARE_PI_WATCH_S and dev.proc.poll() is None:
        png = dev.shot("watch")
        icon = battery_icon(png)
        if icon is not None:
            icons.append(icon)
        time.sleep(5)
    running = dev.proc.poll() is None
    watched = time.time() - gave_up

    log(f"bare-pi: shipped config {shipped}; notice {notice_at} s after the restart")
    check("bare-pi: the shipped config reads the gpio comparators without pulls",
          'source = "gpio"' in shipped
          and sum('pull = "off"' in line for line in shipped) == 4, " / ".join(shipped))
    if not running:
        check("bare-pi: the device is still on 60 s later (no shutdown)", False,
              f"QEMU ended {watched:.1f} s after the source gave up")
        return
    _, said = dev.sh("journalctl --no-pager -o cat _SYSTEMD_INVOCATION_ID=$(systemctl show -p"
                     " InvocationID --value chesspi) | grep -iE 'battery|gpio|critical|shut"
                     "|switching off|bcm2837' | sed 's/^/J| /'")
    said = [line[3:] for line in said.splitlines() if line.startswith("J| ")]
    # The shim's latch count (0x908) and the pads' pulls (0x800: 0 off, 1 down, 2 up).
    _, latch = dev.sh("echo \"L| $(od -An -tu4 -j 2312 -N 4 /dev/gpiomem | tr -d ' ')\";"
                      " echo \"L| pulls$(od -An -tu1 -j 2048 -N 28 /dev/gpiomem | tr -s ' \\n'"
                      " ' ')\"; echo \"L| $(systemctl show -p InvocationID -p ActiveState"
                      " -p NRestarts chesspi | tr '\\n' ' ')\"")
    denials = journal_denials(dev)
    latch_lines = [line[3:].strip() for line in latch.splitlines() if line.startswith("L| ")]
    latches = int(latch_lines[0]) if latch_lines and latch_lines[0].isdigit() else -1
    check("bare-pi: the shim latched the pulls the source set (up, down, off: 4 pins each)",
          latches >= 12, " / ".join(latch_lines))
    board_gone = [line for line in said if "no battery board found" in line.lower()]
    alarming = [line for line in said
                if re.search(r"critical|shutdown|switching off|bcm2837 shim", line, re.I)]
    check("bare-pi: the journal says no battery board once, nothing about critical or shutdown",
          len(board_gone) == 1 and not alarming and denials == "",
          f"{' / '.join(said)[-700:]}; denied: {denials}")
    check("bare-pi: no battery icon in the status bar, and the notice shown",
          not icons and notice_at is not None,
          f"icons seen {icons[:3]}; {amber} amber pixels in the side panel"
          + (f", {notice_at:.1f} s after the restart" if notice_at is not None else ""))
    same = invocation != "" and f"InvocationID={invocation}" in latch \
        and "ActiveState=active" in latch
    check(f"bare-pi: the device is still on {BARE_PI_WATCH_S} s later (critical grace"
          f" {BARE_PI_SHIPPED_GRACE_S} s), the app never restarted",
          running and watched >= BARE_PI_WATCH_S and same,
          f"{watched:.1f} s watched; {latch_lines[-1] if latch_lines else ''}")
    timings.update(bare_pi_notice_after_restart_s=round(notice_at, 1) if notice_at else None,
                   bare_pi_watched_s=round(watched, 1))
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def sealed(body):
    """A state file as the app writes it (src/storage/sealed.rs): the text, then its checksum."""
    return body + f"# fnv1a64 {fnv1a64(body.encode()):016x}\n"


def wav_frames(path):
    """QEMU's WAV so far (the header's sizes are only written at exit): the first channel's
    samples and the rate."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 44 or data[:4] != b"RIFF":
        return [], 0
    channels, rate = struct.unpack_from("<HI", data, 22)
    start = data.find(b"data") + 8
    body = data[start:]
    count = len(body) // (2 * channels)
    samples = struct.unpack_from(f"<{count * channels}h", body)
    return list(samples[::channels]), rate


def stretches(samples, rate):
    """Stretches of sound (seconds each) and their loudness (RMS): runs above a small level,
    broken by 20 ms of near-silence."""
    out, start, quiet, gap = [], None, 0, max(1, rate // 50)
    for i, s in enumerate(samples):
        if abs(s) > 64:
            quiet = 0
            if start is None:
                start = i
        elif start is not None:
            quiet += 1
            if quiet >= gap:
                seg = samples[start:i - quiet + 1]
                rms = (sum(x * x for x in seg) / max(1, len(seg))) ** 0.5
                out.append((len(seg) / rate, rms))
                start, quiet = None, 0
    if start is not None:
        seg = samples[start:]
        rms = (sum(x * x for x in seg) / max(1, len(seg))) ** 0.5
        out.append((len(seg) / rate, rms))
    return out


def sound(start_ref, timings):
    """A USB speaker (QEMU's usb-audio into a WAV; Debian's 6.1 kernel has no snd-virtio): the
    service may use it, the player's move sounds, and with Speak moves on the computer's move
    is spoken (espeak-ng in the image)."""
    disk = os.path.join(OUT, "disk-sound.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    wav = os.path.join(OUT, "sound.wav")
    if os.path.exists(wav):
        os.unlink(wav)
    dev = Device(disk, "sound", extra=("--sound", wav))
    took, png = dev.wait_for_screen(start_ref, "sound-board")
    check("sound: the board on the screen", took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest difference {png}")
    if took is None:
        dev.kill()
        return
    _, out = dev.sh("cat /proc/asound/cards")
    check("sound: the guest's kernel found the USB speaker (snd-usb-audio)",
          "usb-audio" in out.lower() or "usb audio" in out.lower(), out.strip())
    opened = journal_grep(dev, "sound:")
    check("sound: the service opened it (audio group, char-alsa)",
          re.search(r'sound: "default" at \d+ Hz', opened) is not None, opened)
    denials = journal_denials(dev)
    check("sound: nothing denied", denials == "", denials)
    # Speak the computer's moves, at full volume: the settings as the app stores them.
    settings = sealed("# ChessPI settings changed on the device (written by ChessPI; the admin's "
                      "configuration is /etc/chesspi/chesspi.toml). Do not edit.\n"
                      "format = \"chesspi-settings\"\nversion = 1\nvolume_percent = 100\n"
                      "speak_moves = \"opponent\"\n")
    b64 = __import__("base64").b64encode(settings.encode()).decode()
    dev.sh("systemctl stop chesspi && echo " + b64 + " | base64 -d > /var/lib/chesspi/settings.toml"
           " && chown chesspi:chesspi /var/lib/chesspi/settings.toml && systemctl start chesspi")
    took, _ = dev.wait_for_screen(start_ref, "sound-again", patience=120)
    check("sound: the app back with the new settings", took is not None)
    time.sleep(2)
    before = len(wav_frames(wav)[0])
    dev.qmp.touch([centre("e2")], 1)
    time.sleep(0.4)
    dev.qmp.touch([centre("e4")], 2)
    deadline, found, rate = time.time() + 60, [], 0
    while time.time() < deadline:
        time.sleep(1)
        samples, rate = wav_frames(wav)
        found = stretches(samples[before:], rate) if rate else []
        if sum(sec for sec, _ in found[1:]) > 0.4:
            time.sleep(2)
            samples, rate = wav_frames(wav)
            found = stretches(samples[before:], rate)
            break
    shown = ", ".join(f"{sec * 1000:.0f} ms at rms {rms:.0f}" for sec, rms in found)
    check("sound: the move's knock in QEMU's WAV (short, audible)",
          bool(found) and 0.04 <= found[0][0] <= 0.2 and found[0][1] > 300, shown)
    # Then the computer's knock and its move spoken (words, maybe with pauses between them,
    # maybe mixed into the knock's end): over 0.3 s of speech beside a knock.
    check("sound: the computer's move spoken after its knock (over 0.3 s of speech)",
          len(found) >= 2 and sum(sec for sec, _ in found[1:]) > 0.4, shown)
    timings["sound_stretches"] = shown
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


def usb(start_ref, timings):
    """A USB stick with a PGN (FAT, QEMU usb-storage): mounted under /media/<label> by
    itself, writable by the service's user; pulled, the mount goes."""
    disk = os.path.join(OUT, "disk-usb.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    stick = os.path.join(OUT, "stick.img")
    if os.path.exists(stick):
        os.unlink(stick)
    subprocess.run(["mkfs.vfat", "-n", "GAMES", "-C", stick, str(16 * 1024)], check=True,
                   capture_output=True)
    pgn = os.path.join(OUT, "stick.pgn")
    with open(pgn, "w") as f:
        f.write('[Event "Stick"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
                '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    subprocess.run(["mcopy", "-i", stick, pgn, "::/games.pgn"], check=True)
    dev = Device(disk, "usb", extra=("--usb-stick", stick))
    took, png = dev.wait_for_screen(start_ref, "usb-board")
    check("usb: the board on the screen", took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest difference {png}")
    if took is None:
        dev.kill()
        return
    _, out = dev.sh("for i in $(seq 60); do mountpoint -q /media/GAMES && break; sleep 0.5; done;"
                    " findmnt -n -o SOURCE,FSTYPE,OPTIONS /media/GAMES; ls -l /media/GAMES")
    check("usb: the stick is mounted under /media/GAMES by itself",
          "vfat" in out and "games.pgn" in out, out.strip())
    _, out = dev.sh("nsenter -t $(systemctl show -p MainPID --value chesspi) -m "
                    "setpriv --reuid=chesspi --regid=chesspi --clear-groups "
                    "sh -c 'cat /media/GAMES/games.pgn | head -1; echo x > /media/GAMES/w.txt && echo written'")
    check("usb: the service sees the stick and may write to it (export)",
          "[Event" in out and "written" in out, out.strip())
    dev.qmp.call("device_del", id="stick")
    _, out = dev.sh("for i in $(seq 30); do mountpoint -q /media/GAMES || break; sleep 0.5; done;"
                    " mountpoint /media/GAMES; true")
    check("usb: pulled, it is unmounted", "not a mountpoint" in out, out.strip())
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


def grow(start_ref, timings):
    """The Raspberry Pi card image on a bigger card: QEMU boots chesspi-pi3.img (its own
    partition table; the kernel and initrd given directly, root=LABEL=root finds /dev/vda2)
    made 512 MiB larger. The first boot grows the root partition and its file system to the
    end of the card; a power cut early in that boot and a second boot change nothing."""
    img = os.path.join(OUT, "grow.img")
    shutil.copyfile(os.path.join(DEVICE, "chesspi-pi3.img"), img)
    extra = 512 * 1024 * 1024
    with open(img, "r+b") as f:
        f.truncate(os.path.getsize(img) + extra)
    # A power cut the moment systemd says it starts growing (the console shows it), so the
    # cut falls in or right before the grow.
    dev = Device(img, "grow-cut")
    seen = dev.console.wait_for(r"Starting.*Grow the root", BOOT_PATIENCE)
    cut = time.time() - dev.started
    dev.kill()
    dev = Device(img, "grow")
    took, png = dev.wait_for_screen(start_ref, "grow-board")
    check("grow: the card image boots after a power cut as the grow started (%.1f s)" % cut,
          seen and took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest difference {png}")
    if took is None:
        dev.kill()
        return
    # The file system's own size: its block count times its block size.
    _, out = dev.sh("systemctl is-active chesspi-grow-root; findmnt -n -o SOURCE /;"
                    " cat /sys/class/block/vda/size /sys/class/block/vda2/start"
                    " /sys/class/block/vda2/size; dumpe2fs -h /dev/vda2 2>/dev/null"
                    " | awk -F: '/^Block count/{c=$2} /^Block size/{b=$2} END{printf \"%.0f\\n\", c*b}'")
    words = out.split()
    try:
        disk, start, size, fs = (int(w) for w in words[-4:])
    except ValueError:
        check("grow: sizes read", False, out.strip())
        dev.kill()
        return
    before = os.path.getsize(os.path.join(DEVICE, "rootfs.ext4"))
    check("grow: the root partition reaches the end of the card",
          "active" in words[0] and "/dev/vda2" in out and disk - (start + size) < 8192,
          f"disk {disk} sectors, vda2 {start}+{size}")
    check("grow: the file system fills the grown partition (512 MiB more than it was)",
          fs == size * 512 and fs == before + extra, f"{fs} bytes, was {before}")
    timings["grow_fs_bytes"] = fs
    # Again: nothing left to do.
    dev.console.send("poweroff\n")
    dev.wait_off(60) or dev.kill()
    dev = Device(img, "grow2")
    took, _ = dev.wait_for_screen(start_ref, "grow2-board")
    _, out = dev.sh("journalctl -b -u chesspi-grow-root -o cat | grep -ciE 'growing partition'; "
                    "dumpe2fs -h /dev/vda2 2>/dev/null"
                    " | awk -F: '/^Block count/{c=$2} /^Block size/{b=$2} END{printf \"%.0f\\n\", c*b}'")
    words = out.split()
    check("grow: the next boot finds nothing to grow", took is not None and len(words) >= 2
          and words[-2] == "0" and words[-1] == str(fs), out.strip())
    dev.console.send("poweroff\n")
    dev.wait_off(60) or dev.kill()


def splash_share(png):
    """How much of the screen is the boot screen's background (#22262e), and whether the
    knight's colour (#f0d9b5) is in the middle."""
    rows = png[2]
    bg = knight = total = 0
    for y in range(0, 480, 6):
        for x in range(0, 800, 6):
            p = rows[y][x * 3:x * 3 + 3]
            total += 1
            if near(p, (34, 38, 46), 12):
                bg += 1
            if 250 < x < 550 and 90 < y < 260 and near(p, (240, 217, 181), 30):
                knight += 1
    return bg / total, knight


def splash(start_ref, timings):
    """The boot screen: from QEMU's start, a screendump every quarter second; the first
    picture that is not black must be ChessPI's boot screen (plymouth with its theme, from
    the initrd), well before the board; the app then draws over it."""
    disk = os.path.join(OUT, "disk-splash.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    # The Pi's command line for the screen (cmdline.txt): the boot screen, on the display even
    # though the kernel's console is serial, and no cursor.
    dev = Device(disk, "splash",
                 append="splash plymouth.ignore-serial-consoles vt.global_cursor_default=0")
    first, shown, board = None, None, None
    deadline = time.time() + BOOT_PATIENCE
    while time.time() < deadline and board is None:
        try:
            png = dev.qmp.screendump(os.path.join(OUT, "splash-now.png"))
        except (RuntimeError, AssertionError):
            time.sleep(0.25)
            continue
        t = time.time() - dev.started
        if png[0] != 800 or png[1] != 480:
            # No mode set yet: QEMU's own placeholder surface.
            time.sleep(0.25)
            continue
        rows = png[2]
        lit = any(max(rows[y][x * 3:x * 3 + 3]) > 24 for y in range(0, 480, 16)
                  for x in range(0, 800, 16))
        if lit and first is None:
            first = t
            shutil.copyfile(os.path.join(OUT, "splash-now.png"), os.path.join(OUT, "splash-first.png"))
        share, knight = splash_share(png)
        if shown is None and share > 0.8 and knight > 20:
            shown = t
            shutil.copyfile(os.path.join(OUT, "splash-now.png"), os.path.join(OUT, "splash-shown.png"))
        if board_diff(png, start_ref) <= 3.0:
            board = t
        time.sleep(0.25)
    detail = f"first lit frame {first and round(first, 1)} s, boot screen {shown and round(shown, 1)} s, board {board and round(board, 1)} s after QEMU started"
    check("splash: the first picture is ChessPI's boot screen", first is not None
          and shown is not None and shown - first < 1.0, detail)
    check("splash: it shows well before the board (5 s or more)", shown is not None
          and board is not None and board - shown >= 5, detail)
    timings["splash"] = {"first_lit_s": first and round(first, 1), "boot_screen_s": shown and round(shown, 1),
                         "board_s": board and round(board, 1)}
    # plymouth is gone once the app has started (its unit quits it), and the serial console
    # still serves a shell (a Pi's serial login would be there too).
    _, out = dev.sh("pidof plymouthd || echo none; systemctl is-active chesspi")
    check("splash: after the board plymouth has quit and the serial console's shell answers",
          out.split() == ["none", "active"], out.strip())
    dev.kill()


def late_drm_control(start_ref, timings):
    """The same late driver with modprobe@drm.service masked, as on a system before the fix:
    the DRM core is missing when the service starts, so DeviceAllow=char-drm allows nothing
    and the app is denied its display until a restart. Shows the test can see the defect."""
    disk = os.path.join(OUT, "disk-control.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    mask(disk, "/etc/systemd/system/modprobe@drm.service")
    dev = Device(disk, "late-drm-control", append=LATE_DRM_APPEND)
    _, out = dev.sh("for i in $(seq 120); do systemctl is-active -q chesspi && break; sleep 0.5;"
                    " done; grep -w drm /proc/devices || echo no-drm-core", timeout=180)
    check("control: no DRM core when the service started", "no-drm-core" in out, out.strip())
    time.sleep(3)
    dev.sh("modprobe virtio_gpu")
    # The app keeps trying for its 30 s, each time refused; then systemd restarts it.
    took, _ = dev.wait_for_screen(start_ref, "late-drm-control", patience=240)
    state = service_state(dev)
    denials = journal_denials(dev)
    check("control: without modprobe@drm the display is denied until a restart",
          "not permitted" in denials and state.get("NRestarts", "0") != "0",
          f"{state}; board after {took and round(took, 1)} s; {denials[:300]}")
    dev.console.send("poweroff\n")
    if not dev.wait_off(60):
        dev.kill()


# Wi-Fi from the SD card: the test's access point, run inside the guest. mac80211_hwsim gives
# two simulated radios; one goes into the network namespace "ap" and becomes a WPA2 access
# point there (wpa_supplicant's AP mode, mode=2: no hostapd in the image) with a DHCP server
# (dnsmasq from dnsmasq-base), the other waits in the namespace "hold" until the access point
# is up and then comes back: to NetworkManager, a radio appearing. It prints the station's
# interface and the moment (guest clock) the radio appeared.
WIFI_SSID = "ChessPI-test"
WIFI_PSK = "e4-e5-Nf3-Nc6"
WIFI_AP_SCRIPT = r"""set -e
psk=$1 ssid=ChessPI-test net=192.168.77
modprobe mac80211_hwsim radios=2
for i in $(seq 100); do [ "$(ls /sys/class/ieee80211 | wc -l)" -ge 2 ] && break; sleep 0.1; done
set -- $(ls /sys/class/ieee80211 | sort -V | tail -n 2)
sta=$1 ap=$2
ip netns add ap
ip netns add hold
iw phy "$ap" set netns name ap
iw phy "$sta" set netns name hold
apif=$(ip netns exec ap iw dev | awk '/Interface/{print $2; exit}')
printf 'ctrl_interface=/run/wifi-ap\nnetwork={\n ssid="%s"\n mode=2\n frequency=2437\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n psk="%s"\n}\n' \
  "$ssid" "$psk" > /run/wifi-ap.conf
ip netns exec ap ip link set lo up
ip netns exec ap wpa_supplicant -B -D nl80211 -i "$apif" -c /run/wifi-ap.conf -f /run/wifi-ap.log
for i in $(seq 100); do ip netns exec ap iw dev "$apif" info | grep -q 'type AP' && break; sleep 0.2; done
ip netns exec ap iw dev "$apif" info | grep -E 'type|channel'
ip netns exec ap ip addr add "$net.1/24" dev "$apif"
ip netns exec ap dnsmasq --conf-file=/dev/null --port=0 --interface="$apif" --bind-interfaces \
  --dhcp-range="$net.10,$net.50,1h" --dhcp-leasefile=/run/wifi-ap.leases \
  --pid-file=/run/wifi-ap-dnsmasq.pid --user=root --log-dhcp --log-facility=/run/wifi-ap-dnsmasq.log
appeared=$(date +%s.%N)
ip netns exec hold iw phy "$sta" set netns 1
staif=$(iw dev | awk '/Interface/{print $2; exit}')
echo "station $staif appeared $appeared"
"""


def wifi_card_image(path, password, country="de"):
    """The SD card's boot partition as QEMU sees it with --boot-disk: a FAT image labelled
    CHESSBOOT with chesspi.txt (as a person may write it: Windows line ends, a comment,
    spaces, a lower-case country) and the test's access-point script."""
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mkfs.vfat", "-n", "CHESSBOOT", "-C", path, str(8 * 1024)], check=True,
                   capture_output=True)
    txt = os.path.join(OUT, "chesspi.txt")
    with open(txt, "w", newline="") as f:
        f.write(f"# the test's network\r\ncountry = {country}\r\nssid={WIFI_SSID}\r\n"
                f"password={password}\r\n")
    ap = os.path.join(OUT, "wifi-ap.sh")
    with open(ap, "w") as f:
        f.write(WIFI_AP_SCRIPT)
    subprocess.run(["mcopy", "-o", "-i", path, txt, "::/chesspi.txt"], check=True)
    subprocess.run(["mcopy", "-o", "-i", path, ap, "::/wifi-ap.sh"], check=True)


def marked(out, mark="W| "):
    """The lines of a serial answer that the guest marked (kernel messages interleave)."""
    return "\n".join(line[len(mark):] for line in out.splitlines() if line.startswith(mark))


def wifi_card_journal(dev):
    """chesspi-wifi-card's result and journal, once it has run."""
    dev.sh("for i in $(seq 240); do [ \"$(systemctl show -p ExecMainExitTimestampMonotonic"
           " --value chesspi-wifi-card)\" != 0 ] && break; sleep 0.5; done", timeout=180)
    _, out = dev.sh("systemctl show -p Result --value chesspi-wifi-card | sed 's/^/W| /';"
                    " journalctl -b -u chesspi-wifi-card -o cat | sed 's/^/W| /'")
    return marked(out)


def wifi_access_point(dev):
    """The simulated radios and the access point (WIFI_AP_SCRIPT, from the card): the
    station's interface and when (guest clock) its radio appeared, or None."""
    _, out = dev.sh(f"sh /boot/firmware/wifi-ap.sh '{WIFI_PSK}' 2>&1 | sed 's/^/W| /'",
                    timeout=120)
    ap = marked(out)
    m = re.search(r"station (\S+) appeared ([\d.]+)", ap)
    return (m.group(1), float(m.group(2)), ap) if m and "type AP" in ap else (None, None, ap)


def wifi_card(start_ref, timings):
    """Wi-Fi from the SD card: chesspi.txt on the boot partition (a second disk labelled
    CHESSBOOT) is applied at boot through NetworkManager; with simulated radios
    (mac80211_hwsim) and a WPA2 access point in the guest, NetworkManager joins by itself.
    The file's hash is remembered (a re-run does nothing); an edited file (a wrong password)
    is applied at the next boot and NetworkManager reports the failure."""
    disk = os.path.join(OUT, "disk-wifi.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    card = os.path.join(OUT, "wifi-card.img")
    wifi_card_image(card, WIFI_PSK)
    # An Ethernet card too (its peer socket is nobody's): it must stay with systemd-networkd.
    eth = ("--net-peer",
           os.path.join(OUT, "wifi-eth.sock") + ":" + os.path.join(OUT, "wifi-nobody.sock"))
    dev = Device(disk, "wifi", extra=("--boot-disk", card, *eth))
    took, png = dev.wait_for_screen(start_ref, "wifi-board")
    check("wifi: the board on the screen (NetworkManager in the image)", took is not None,
          f"{took:.1f} s after QEMU started" if took else f"closest difference {png}")
    dev.sh("dmesg -n 1", timeout=BOOT_PATIENCE)  # kernel messages off the shell's answers
    journal = wifi_card_journal(dev)
    check("wifi: chesspi.txt applied at boot",
          journal.startswith("success") and
          f'applied chesspi.txt: country DE, network "{WIFI_SSID}" (WPA2)' in journal, journal)
    _, out = dev.sh("findmnt -n -o FSTYPE /boot/firmware | sed 's/^/W| /'; "
                    "sed 's/^/W| /' /etc/modprobe.d/chesspi-wifi-country.conf; "
                    "stat -c 'W| %a %U %s' /var/lib/chesspi-wifi/applied-sha256; "
                    "nmcli -t -f NAME,TYPE,AUTOCONNECT connection show | sed 's/^/W| /'; "
                    "nmcli -t -f 802-11-wireless.ssid,802-11-wireless-security.key-mgmt "
                    "connection show chesspi-card | sed 's/^/W| /'; "
                    f"echo \"W| password in the journal: $(journalctl -b | grep -cF '{WIFI_PSK}')\"; "
                    "nmcli -t -f DEVICE,TYPE,STATE device | sed 's/^/W| /'; "
                    "networkctl list --no-legend --no-pager | sed 's/^/W| /'; "
                    "echo \"W| wait-online: $(systemctl is-enabled NetworkManager-wait-online) "
                    "$(systemctl is-active NetworkManager-wait-online)\"")
    state = marked(out)
    check("wifi: the country for later boots, the hash remembered, the NetworkManager connection",
          "vfat" in state and "ieee80211_regdom=DE" in state
          and "chesspi-card:802-11-wireless:yes" in state
          and f"802-11-wireless.ssid:{WIFI_SSID}" in state and "wpa-psk" in state
          and re.search(r"^600 root 65$", state, re.M) is not None, state)
    check("wifi: the password is nowhere in the journal", "password in the journal: 0" in state,
          state)
    check("wifi: Ethernet stays with systemd-networkd (NetworkManager leaves it unmanaged), "
          "NetworkManager-wait-online out of the boot",
          re.search(r"^(en\w+|eth\d+):ethernet:unmanaged$", state, re.M) is not None
          and re.search(r"(en\w+|eth\d+)\s+ether\s+\S+\s+(configur|degraded)", state) is not None
          and "wait-online: disabled inactive" in state, state)
    # The access point, then the station's radio appears: NetworkManager must join by itself.
    staif, appeared, ap = wifi_access_point(dev)
    check("wifi: simulated radios, the WPA2 access point up in its namespace", staif is not None,
          ap)
    if staif is None:
        dev.kill()
        return
    _, out = dev.sh(f"for i in $(seq 600); do nmcli -t -f GENERAL.STATE device show {staif}"
                    f" | grep -q '^GENERAL.STATE:100' && ip -4 -o addr show {staif}"
                    f" | grep -q 192.168.77. && break; sleep 0.2; done;"
                    f" echo \"W| at $(date +%s.%N)\";"
                    f" nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    f" | sed 's/^/W| /'; ip -4 -o addr show {staif} | sed 's/^/W| /';"
                    f" iw reg get | head -n 3 | sed 's/^/W| /'", timeout=240)
    joined = marked(out)
    m = re.search(r"at ([\d.]+)", joined)
    took = float(m.group(1)) - appeared if m else None
    ok = ("GENERAL.STATE:100" in joined and "CONNECTION:chesspi-card" in joined
          and "192.168.77." in joined)
    check(f"wifi: NetworkManager joins {WIFI_SSID} by itself from the card's file and gets an "
          "address", ok, f"{took:.1f} s from the radio appearing; {joined}" if took else joined)
    check("wifi: the regulatory country is the card's", "country DE" in joined, joined)
    if ok:
        timings["wifi_join_s"] = round(took, 1)
    # The same file again (a re-run, as at every boot): nothing is applied.
    _, out = dev.sh("systemctl start chesspi-wifi-card; journalctl -b -u chesspi-wifi-card"
                    " -o cat | grep '^chesspi-wifi-card:' | tail -n 1 | sed 's/^/W| /';"
                    " nmcli -t -f NAME connection show"
                    " | grep -c '^chesspi-card$' | sed 's/^/W| count /'")
    again = marked(out)
    check("wifi: the same file is not applied again (its hash is remembered)",
          "already applied" in again and "count 1" in again, again)
    dev.console.send("poweroff\n")
    if not dev.wait_off(90):
        dev.kill()
    # The file edited (a wrong password): applied at the next boot; NetworkManager fails.
    wifi_card_image(card, "not-the-password")
    dev = Device(disk, "wifi2", extra=("--boot-disk", card, *eth))
    dev.sh("dmesg -n 1", timeout=BOOT_PATIENCE)
    journal = wifi_card_journal(dev)
    _, out = dev.sh("echo \"W| cfg80211 at boot: $(cat"
                    " /sys/module/cfg80211/parameters/ieee80211_regdom 2>/dev/null)\";"
                    " nmcli -t -f NAME connection show | grep -c '^chesspi-card$'"
                    " | sed 's/^/W| count /'")
    state = marked(out)
    check("wifi: the edited file is applied at the next boot, the connection replaced",
          journal.startswith("success") and "applied chesspi.txt" in journal
          and "count 1" in state, journal + "\n" + state)
    check("wifi: the country from the modprobe option at the next boot",
          "cfg80211 at boot: DE" in state, state)
    staif, appeared, ap = wifi_access_point(dev)
    if staif is None:
        check("wifi: the access point again", False, ap)
        dev.kill()
        return
    _, out = dev.sh(f"for i in $(seq 600); do journalctl -b -u NetworkManager -o cat | grep -qE"
                    f" 'device \\({staif}\\).*-> failed' && break; sleep 0.3; done;"
                    f" echo \"W| at $(date +%s.%N)\"; journalctl -b -u NetworkManager -o cat"
                    f" | grep -E '\\({staif}\\).*(need-auth|-> failed|secrets)' | tail -n 4"
                    f" | sed 's/^/W| /'; nmcli -t -f GENERAL.STATE device show {staif}"
                    f" | sed 's/^/W| /'", timeout=240)
    failed = marked(out)
    m = re.search(r"at ([\d.]+)", failed)
    took = float(m.group(1)) - appeared if m else None
    ok = "-> failed" in failed and "GENERAL.STATE:100" not in failed
    check("wifi: a wrong password: NetworkManager's failure, no connection", ok,
          f"{took:.1f} s from the radio appearing; {failed}" if took else failed)
    if ok:
        timings["wifi_wrong_password_failed_s"] = round(took, 1)
    dev.console.send("poweroff\n")
    if not dev.wait_off(90):
        dev.kill()


# --- Wi-Fi by touch (Settings → Wi-Fi…) and the hotspot for a game without a router ---------

# Three simulated radios: the device's own (left to NetworkManager), one for the test's WPA2
# access point in the namespace "ap" (as in wifi-card), one waiting in the namespace "client"
# for the hotspot stage's partner. Written into the disk copy (debugfs), run by the serial shell.
TOUCH_DIR = "/usr/local/lib/chesspi-wifi-test"
TOUCH_PSK = "Knight#42"
TOUCH_WRONG = "Knight#41"
TOUCH_AP_SCRIPT = r"""set -e
psk=$1 ssid=${2:-ChessPI-test} net=${3:-192.168.77}
modprobe mac80211_hwsim radios=3
for i in $(seq 100); do [ "$(ls /sys/class/ieee80211 | wc -l)" -ge 3 ] && break; sleep 0.1; done
set -- $(ls /sys/class/ieee80211 | sort -V | tail -n 3)
sta=$1 ap=$2 cl=$3
ip netns add ap
ip netns add client
iw phy "$ap" set netns name ap
iw phy "$cl" set netns name client
apif=$(ip netns exec ap iw dev | awk '/Interface/{print $2; exit}')
printf 'ctrl_interface=/run/wifi-ap\nnetwork={\n ssid="%s"\n mode=2\n frequency=2437\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n psk="%s"\n}\n' \
  "$ssid" "$psk" > /run/wifi-ap.conf
ip netns exec ap ip link set lo up
ip netns exec ap wpa_supplicant -B -D nl80211 -i "$apif" -c /run/wifi-ap.conf -f /run/wifi-ap.log
for i in $(seq 100); do ip netns exec ap iw dev "$apif" info | grep -q 'type AP' && break; sleep 0.2; done
ip netns exec ap iw dev "$apif" info | grep -E 'type|channel'
ip netns exec ap ip addr add "$net.1/24" dev "$apif"
ip netns exec ap dnsmasq --conf-file=/dev/null --port=0 --interface="$apif" --bind-interfaces \
  --dhcp-range="$net.10,$net.50,1h" --dhcp-leasefile=/run/wifi-ap.leases \
  --pid-file=/run/wifi-ap-dnsmasq.pid --user=root --log-dhcp --log-facility=/run/wifi-ap-dnsmasq.log
staif=$(iw dev | awk '/Interface/{print $2; exit}')
echo "station $staif"
"""
# The hotspot's partner: the third radio, in the namespace "client", joins the hotspot with
# wpa_supplicant (the image has no DHCP client but NetworkManager's own: a static address in
# the hotspot's 10.42.0.0/24), then speaks the game protocol to the host over it: a `hello`
# with a pairing code that can never be right ("abcd") must get the host's `bad_code`.
TOUCH_CLIENT_SCRIPT = r"""ssid=$1 psk=$2 host=$3
clif=$(ip netns exec client iw dev | awk '/Interface/{print $2; exit}')
printf 'ctrl_interface=/run/wifi-client\nnetwork={\n ssid="%s"\n key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n psk="%s"\n}\n' \
  "$ssid" "$psk" > /run/wifi-client.conf
ip netns exec client ip link set lo up
ip netns exec client wpa_supplicant -B -D nl80211 -i "$clif" -c /run/wifi-client.conf -f /run/wifi-client.log
for i in $(seq 150); do
  ip netns exec client wpa_cli -p /run/wifi-client -i "$clif" status | grep -q '^wpa_state=COMPLETED' && break
  sleep 0.2
done
echo "associated at $(date +%s.%N)"
ip netns exec client wpa_cli -p /run/wifi-client -i "$clif" status | grep -E '^(ssid|wpa_state|key_mgmt|pairwise_cipher)='
ip netns exec client ip addr add 10.42.0.50/24 dev "$clif"
ip netns exec client ip -4 -o addr show "$clif"
ip netns exec client timeout 15 bash -c '
  exec 3<>/dev/tcp/'"$host"'/7531 || exit 1
  printf "%s\n" "{\"type\":\"hello\",\"protocol\":1,\"name\":\"Test\",\"code\":\"abcd\",\"resume\":null}" >&3
  while IFS= read -r line <&3; do echo "host says: $line"; done' || echo "no answer from $host"
"""
# The partner of the hotspot game: connects to the host over the hotspot, says hello with the
# right code, then plays as the protocol asks (PROTOCOL.md §5): answers every ping, pings every
# second, acknowledges every move and answers the host's move before ply N with its own reply
# given as "N:uci". It stops when the host closes the connection (its `bye` on a new game).
# Everything the host says, and every move sent, goes to standard output.
TOUCH_PEER_SCRIPT = r"""host=$1 code=$2; shift 2; replies="$*"
exec 3<>/dev/tcp/$host/7531 || { echo "no connection to $host"; exit 1; }
send() { printf '%s\n' "$1" >&3; case $1 in *'"ping"'*|*'"pong"'*) ;; *) echo "sent: $1";; esac; }
send '{"type":"hello","protocol":1,"name":"Partner","code":"'"$code"'","resume":null}'
seq=0 last=$SECONDS buf=
while :; do
  if IFS= read -r -t 0.3 part <&3; then
    line=$buf$part buf=
    case $line in *'"ping"'*) ;; *) echo "host says: $line";; esac
    if [[ $line =~ \"type\":\"ping\" && $line =~ \"seq\":([0-9]+) ]]; then
      send "{\"type\":\"pong\",\"seq\":${BASH_REMATCH[1]}}"
    elif [[ $line =~ \"type\":\"move\" && $line =~ \"ply\":([0-9]+) ]]; then
      ply=${BASH_REMATCH[1]}
      send "{\"type\":\"ack\",\"ply\":$ply}"
      for r in $replies; do
        [ "${r%%:*}" = $((ply + 1)) ] && send "{\"type\":\"move\",\"ply\":$((ply + 1)),\"uci\":\"${r#*:}\"}"
      done
    fi
  else
    [ $? -gt 128 ] || { echo "closed by the host"; break; }
    buf=$buf$part
  fi
  [ $SECONDS = $last ] || { last=$SECONDS seq=$((seq + 1)); send "{\"type\":\"ping\",\"seq\":$seq}"; }
done
"""
# A DNS-SD browser for the hotspot's partner (Perl's Socket, as the image has no avahi): joins
# the mDNS group on the given address's interface, asks for `_chesspi._tcp.local` PTR records
# up to five times, and prints each answer (its printable text) and the addresses in its A
# records.
TOUCH_MDNS_SCRIPT = r"""use strict;
use warnings;
use Socket qw(:all);
use IO::Select;
my ($ifaddr) = @ARGV;
socket(my $s, PF_INET, SOCK_DGRAM, 0) or die "socket: $!";
setsockopt($s, SOL_SOCKET, SO_REUSEADDR, 1) or die "reuse: $!";
bind($s, pack_sockaddr_in(5353, INADDR_ANY)) or die "bind: $!";
my $group = inet_aton('224.0.0.251');
setsockopt($s, IPPROTO_IP, IP_ADD_MEMBERSHIP, pack_ip_mreq($group, inet_aton($ifaddr)))
    or die "join: $!";
setsockopt($s, IPPROTO_IP, IP_MULTICAST_IF, inet_aton($ifaddr)) or die "multicast if: $!";
# One question: PTR _chesspi._tcp.local, class IN.
my $query = pack('n6', 0, 0, 1, 0, 0, 0)
    . join('', map { chr(length) . $_ } qw(_chesspi _tcp local)) . "\0" . pack('n2', 12, 1);
my $select = IO::Select->new($s);
my $found = 0;
for my $try (1 .. 5) {
    send($s, $query, 0, pack_sockaddr_in(5353, $group)) or die "send: $!";
    my $until = time + 2;
    while (time < $until && $select->can_read(0.5)) {
        my $from = recv($s, my $packet, 9000, 0);
        next unless defined $from && length $packet > 12;
        next unless ord(substr($packet, 2, 1)) & 0x80;    # answers only, not our own question
        next unless $packet =~ /\x08_chesspi\x04_tcp/;
        my (undef, $addr) = unpack_sockaddr_in($from);
        (my $text = $packet) =~ s/[^\x20-\x7e]+/ /g;
        print "answer from ", inet_ntoa($addr), ": $text\n";
        while ($packet =~ /\x00\x01\x80\x01.{4}\x00\x04(.{4})/sg) {
            print "A ", inet_ntoa($1), "\n";
        }
        $found = 1;
    }
    last if $found;
}
print "no answer\n" unless $found;
"""
# The other ChessPI for the hotspot-join stage: a host of the game protocol (PROTOCOL.md §4-5)
# in Perl (perl-base is in every Debian system; the image has no Python): it listens on the
# hotspot's address, welcomes a guest that gives the code (the guest plays White), answers pings,
# pings every second, acknowledges moves and answers the guest's move before ply N with "N:uci".
# It ends when the guest closes the connection.
TOUCH_HOST_SCRIPT = r"""use strict;
use warnings;
use IO::Socket::INET;
use IO::Select;
my ($addr, $code, @replies) = @ARGV;
my %reply = map { split /:/ } @replies;
$| = 1;
my $server = IO::Socket::INET->new(LocalAddr => $addr, LocalPort => 7531, Listen => 1,
                                   ReuseAddr => 1) or die "cannot listen on $addr: $!";
print "listening on $addr\n";
my $start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
while (my $c = $server->accept) {
    $c->autoflush(1);
    my $select = IO::Select->new($c);
    my ($buf, $seq, $last, $welcomed) = ('', 0, time, 0);
    my $send = sub {
        print $c "$_[0]\n";
        print "sent: $_[0]\n" unless $_[0] =~ /"p[io]ng"/;
    };
    CONNECTION: while (1) {
        if ($select->can_read(0.3)) {
            my $n = sysread($c, $buf, 4096, length $buf);
            if (!$n) { print "closed by the guest\n"; last CONNECTION; }
            while ($buf =~ s/^([^\n]*)\n//) {
                my $line = $1;
                print "guest says: $line\n" unless $line =~ /"p[io]ng"/;
                if ($line =~ /"type":"hello"/) {
                    if ($line =~ /"code":"\Q$code\E"/) {
                        $send->('{"type":"welcome","protocol":1,"name":"Kitchen","game":'
                                . '"0123456789abcdef0123456789abcdef","you":"white","start":"'
                                . $start . '","moves":[],"result":null}');
                        $welcomed = 1;
                    } else {
                        $send->('{"type":"error","code":"bad_code"}');
                        last CONNECTION;
                    }
                } elsif ($line =~ /"type":"ping"/ && $line =~ /"seq":(\d+)/) {
                    $send->(qq({"type":"pong","seq":$1}));
                } elsif ($line =~ /"type":"move"/ && $line =~ /"ply":(\d+)/) {
                    my $ply = $1;
                    $send->(qq({"type":"ack","ply":$ply}));
                    my $next = $ply + 1;
                    $send->(qq({"type":"move","ply":$next,"uci":"$reply{$next}"}))
                        if exists $reply{$next};
                }
            }
        }
        if ($welcomed && time != $last) {
            $last = time;
            $seq++;
            $send->(qq({"type":"ping","seq":$seq}));
        }
    }
    close $c;
    last if $welcomed;
}
"""
# The other ChessPI's hotspot in the hotspot-join stage: its name and password as a ChessPI
# makes them (src/wifi/mod.rs: "ChessPI-" and the host's name; sixteen digits), its network
# 10.42.0.0/24 (an older ChessPI's shared mode hands out 10.42.0.10 and up; the guest takes a
# fixed address below that, src/wifi/nm/hotspot.rs).
TOUCH_OTHER_SSID = "ChessPI-Kitchen"
TOUCH_OTHER_PSK = "1357246809753124"
TOUCH_OTHER_NET = "10.42.0"

# The pairing code in the config of the hotspot stage's device (`[lan] code`, a documented
# setting), so that its partner knows it: reading the random one off the screen would need
# text recognition (as in lan_test.py).
TOUCH_CODE = "2580"
# Scholar's mate: the device (White) plays by touch, the partner answers.
TOUCH_GAME = ("e2e4", "f1c4", "d1h5", "h5f7")
TOUCH_REPLIES = "1:e7e5 3:b8c6 5:g8f6"

TOUCH_ROW = (26, 29, 35)       # Theme.panel-sunken: a network's row
TOUCH_BUTTON = (58, 65, 77)    # Theme.button
TOUCH_ACCENT = (91, 180, 80)   # Theme.accent
TOUCH_DANGER = (217, 83, 79)   # Theme.danger
# The on-screen keyboard's layers as src/app/screens/wifi/keyboard.rs lays them out: rows of
# (id, width in units); a letter is 2 units, each row 20.
_DIGITS = [(f"c:{c}", 2) for c in "1234567890"]


def _letter_rows(upper):
    case = str.upper if upper else str.lower
    return [_DIGITS,
            [(f"c:{case(c)}", 2) for c in "qwertyuiop"],
            [(f"c:{case(c)}", 2) for c in "asdfghjkl"],
            [("shift", 3)] + [(f"c:{case(c)}", 2) for c in "zxcvbnm"] + [("delete", 3)],
            [("symbols", 4), ("c:,", 2), ("space", 10), ("c:.", 2), ("c:-", 2)]]


TOUCH_LAYERS = {
    "lower": _letter_rows(False),
    "upper": _letter_rows(True),
    "symbols": [_DIGITS,
                [(f"c:{c}", 2) for c in "!@#$%^&*()"],
                [(f"c:{c}", 2) for c in "-_=+[]{};:"],
                [("letters", 2)] + [(f"c:{c}", 2) for c in "'\",/\\|~`"] + [("delete", 2)],
                [("c:<", 2), ("c:>", 2), ("space", 10), ("c:?", 2), ("c:.", 2)]],
}


def colour_runs(png, x, y0, y1, colour, tolerance=6, shortest=20):
    """Runs (first, last) of rows y0..y1 where column x has `colour`."""
    rows, out, start = png[2], [], None
    for y in range(y0, y1):
        hit = near(rows[y][x * 3:x * 3 + 3], colour, tolerance)
        if hit and start is None:
            start = y
        if not hit and start is not None:
            if y - start >= shortest:
                out.append((start, y - 1))
            start = None
    if start is not None and y1 - start >= shortest:
        out.append((start, y1 - 1))
    return out


def colour_count(png, box, colour, tolerance=12):
    x0, y0, x1, y1 = box
    rows = png[2]
    return sum(1 for y in range(y0, y1) for x in range(x0, x1)
               if near(rows[y][x * 3:x * 3 + 3], colour, tolerance))


class Keys:
    """Types on the Wi-Fi page's keyboard by touch, as a person would: it knows the layer it
    shows (src/app/screens/wifi/keyboard.rs) and finds the keyboard's rows on a screendump
    (a message line above the field pushes them down)."""

    def __init__(self, dev):
        self.dev, self.layer, self.rows = dev, "lower", None

    def locate(self, png):
        # The keyboard's top: the "1" key's left edge (the first row is the digits in every
        # layer); its bottom: the space bar's (the last row, wide in every layer). Five rows
        # 5 px apart between them.
        left = [r for r in colour_runs(png, 16, 120, 480, TOUCH_BUTTON) if r[1] - r[0] > 30]
        space = [r for r in colour_runs(png, 260, 120, 480, TOUCH_BUTTON) if r[1] - r[0] > 30]
        if len(left) < 3 or len(space) < 4:
            self.rows = None
            return None
        top, bottom = left[0][0], space[-1][1]
        height = (bottom - top + 1 - 4 * 5) / 5
        self.rows = [(round(top + i * (height + 5)), round(top + i * (height + 5) + height - 1))
                     for i in range(5)]
        return self.rows

    def point(self, key):
        unit = (776 - 9 * 5) / 20
        for r, row in enumerate(TOUCH_LAYERS[self.layer]):
            widths = [unit * w + (w / 2 - 1) * 5 for _, w in row]
            x = 12 + (776 - sum(widths) - 5 * (len(widths) - 1)) / 2
            for (k, _), w in zip(row, widths):
                if k == key:
                    return round(x + w / 2), (self.rows[r][0] + self.rows[r][1]) // 2
                x += w + 5
        return None

    def tap(self, key):
        self.dev.tap(self.point(key))
        time.sleep(0.35)
        if key == "shift":
            self.layer = "upper" if self.layer == "lower" else "lower"
        elif key == "symbols":
            self.layer = "symbols"
        elif key == "letters":
            self.layer = "lower"
        elif key.startswith("c:") and self.layer == "upper":
            self.layer = "lower"

    def type(self, text):
        for ch in text:
            key = f"c:{ch}"
            if self.point(key) is None:
                if ch.isalpha():
                    if self.layer == "symbols":
                        self.tap("letters")
                    if ch.isupper():
                        self.tap("shift")
                else:
                    self.tap("symbols")
            self.tap(key)


def touch_device_tap(dev):
    """dev.tap((x, y)): one finger, a fresh tracking id each time."""
    counter = [100]

    def tap(point):
        counter[0] += 1
        dev.qmp.touch([point], counter[0])
    dev.tap = tap


def wait_shot(dev, label, test, patience=30, step=0.7):
    """Screendumps until test(png) is true; returns (png, ok)."""
    deadline = time.time() + patience
    while True:
        png = dev.shot(label)
        if test(png):
            return png, True
        if time.time() > deadline:
            return png, False
        time.sleep(step)


def dialog_buttons(png, x=215):
    """The buttons of a centred dialog down column x (grey or green): runs of 40+ px."""
    runs = colour_runs(png, x, 0, 480, TOUCH_BUTTON, 6, 36) + \
        colour_runs(png, x, 0, 480, TOUCH_ACCENT, 6, 36)
    return sorted(runs)


def wifi_touch(start_ref, timings, keep=False):
    """Settings → Wi-Fi… by touch on the device: the list shows the test's access point, a
    wrong password typed on the on-screen keyboard is refused (red) and not kept, the right one
    joins (NetworkManager connected, a 192.168.77.x address, the status line changes).
    Returns the device still running when `keep` (the hotspot stage goes on with it)."""
    disk = os.path.join(OUT, "disk-wifi-touch.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    touch_overlay(disk)
    dev = Device(disk, "wifi-touch", extra=touch_card())
    touch_device_tap(dev)
    took, png = dev.wait_for_screen(start_ref, "board")
    if not check("wifi-touch: the board on the screen", took is not None,
                 f"{took:.1f} s after QEMU started" if took else f"closest difference {png}"):
        dev.kill()
        return None
    timings["wifi_touch_board_s"] = round(took, 1)
    dev.sh("dmesg -n 1", timeout=BOOT_PATIENCE)
    _, out = dev.sh(f"sh {TOUCH_DIR}/ap.sh '{TOUCH_PSK}' 2>&1 | sed 's/^/W| /'", timeout=120)
    ap = marked(out)
    m = re.search(r"station (\S+)", ap)
    if not check("wifi-touch: three simulated radios, the WPA2 access point up",
                 m is not None and "type AP" in ap, ap):
        dev.kill()
        return None
    staif = m.group(1)
    dev.staif = staif
    # Who asks NetworkManager to scan and to add connections: recorded on the system bus.
    dev.sh("(dbus-monitor --system \"type='method_call',interface="
           "'org.freedesktop.NetworkManager.Device.Wireless'\" \"type='method_call',"
           "member='AddAndActivateConnection'\" \"type='method_call',"
           "member='ActivateConnection'\" > /run/wifi-bus.log 2>&1 &) ; sleep 1")

    # Menu → Settings → Wi-Fi…
    dev.tap((743, 444))                     # Menu
    time.sleep(1.5)
    menu = dev.shot("menu")
    # The device's menu (two columns of buttons): Settings is the left column's sixth.
    left = dialog_buttons(menu, 122)
    log(f"wifi-touch: the menu's left column {left}")
    dev.tap((256, (left[5][0] + left[5][1]) // 2 if len(left) >= 6 else 374))
    time.sleep(1.5)
    settings = dev.shot("settings")
    # Two columns, row by row, ending with Wi-Fi…, About ChessPI (with or without the
    # brightness options): Wi-Fi… is the last of the right column when the count is odd (About
    # alone on the last row), else the last of the left one.
    left, right = dialog_buttons(settings, 122), dialog_buttons(settings, 408)
    log(f"wifi-touch: the settings' columns {left} {right}")
    column, x = (right, 543) if (len(left) + len(right)) % 2 else (left, 256)
    dev.tap((x, (column[-1][0] + column[-1][1]) // 2 if column else 374))
    time.sleep(0.3)
    opened_at = time.time()

    def has_row(png):
        return bool([r for r in colour_runs(png, 300, 90, 300, TOUCH_ROW) if r[1] - r[0] > 45])
    png, listed = wait_shot(dev, "wifi-list", has_row, patience=60)
    rows = [r for r in colour_runs(png, 300, 90, 300, TOUCH_ROW) if r[1] - r[0] > 45]
    _, out = dev.sh("grep -c 'member=RequestScan' /run/wifi-bus.log | sed 's/^/W| scans /';"
                    " nmcli -t -f SSID,SECURITY device wifi list ifname " + staif +
                    " --rescan no | sed 's/^/W| /'")
    nm = marked(out)
    scans = re.search(r"scans (\d+)", nm)
    check("wifi-touch: Menu → Settings → Wi-Fi… shows the access point's row; the app asked "
          "NetworkManager to scan",
          listed and WIFI_SSID in nm and scans is not None and int(scans.group(1)) >= 1,
          f"rows {rows} after {time.time() - opened_at:.1f} s; {nm}")
    if not listed:
        dev.kill()
        return None
    status_before = [r[12 * 3:620 * 3] for r in png[2][64:100]]
    # The row: the password page.
    row = rows[0]
    dev.tap((300, (row[0] + row[1]) // 2))
    keys = Keys(dev)
    png, shown = wait_shot(dev, "wifi-password", keys.locate, patience=15)
    if not check("wifi-touch: tapping the row opens the password page with the keyboard", shown,
                 f"key rows {keys.rows}"):
        dev.kill()
        return None
    keys.type(TOUCH_WRONG)
    typed = dev.shot("wifi-typed-wrong")
    join = colour_runs(typed, 640, 60, 200, TOUCH_ACCENT, 6, 30)
    dev.tap((708, (join[0][0] + join[0][1]) // 2 if join else 98))
    sent = time.time()
    png, refused = wait_shot(
        dev, "wifi-refused",
        lambda p: colour_count(p, (12, 60, 788, 110), TOUCH_DANGER, 30) > 40, patience=90)
    refused_after = time.time() - sent
    _, out = dev.sh(f"nmcli -t -f NAME,TYPE connection show | sed 's/^/W| /';"
                    f" nmcli -t -f GENERAL.STATE device show {staif} | sed 's/^/W| /';"
                    " journalctl -b -u chesspi -o cat | grep 'Wi-Fi' | tail -n 3 | sed 's/^/W| /';"
                    f" journalctl -b -u NetworkManager -o cat | grep -E '\\({staif}\\).*"
                    "(state change|disconnected during|asking for new key|secrets)' | tail -n 8"
                    " | sed 's/^/W| NM: /'")
    state = marked(out)
    check("wifi-touch: a wrong password typed on the keyboard: the red refusal, nothing saved",
          refused and WIFI_SSID not in re.sub(r"(Wi-Fi|NM): .*", "", state)
          and "GENERAL.STATE:100" not in state,
          f"{refused_after:.1f} s after Join; danger pixels "
          f"{colour_count(png, (12, 60, 788, 110), TOUCH_DANGER, 30)}; {state}")
    if refused:
        timings["wifi_touch_refused_s"] = round(refused_after, 1)
    # Kept on the password page, the typed text there to correct (tests/ui_wifi.rs).
    kept_page = keys.locate(png) is not None
    check("wifi-touch: after the refusal the password page stays, to correct the password",
          kept_page, "" if kept_page else "the app went back to the list (see "
          "wifi-touch-wifi-refused.png): the refusal was not taken for a wrong password")
    if kept_page:
        # Correct it: delete the last character, type the right one, Join.
        keys.tap("delete")
        keys.type(TOUCH_PSK[-1])
    else:
        # Choose the network again and type the whole password.
        rows = [r for r in colour_runs(png, 300, 90, 300, TOUCH_ROW) if r[1] - r[0] > 45]
        dev.tap((300, (rows[0][0] + rows[0][1]) // 2 if rows else 159))
        keys = Keys(dev)
        png, shown = wait_shot(dev, "wifi-password-again", keys.locate, patience=15)
        keys.type(TOUCH_PSK)
    png = dev.shot("wifi-typed-right")
    join = colour_runs(png, 640, 60, 200, TOUCH_ACCENT, 6, 30)
    dev.tap((708, (join[0][0] + join[0][1]) // 2 if join else 125))
    sent = time.time()

    def connected(p):
        # Back on the list: a row with the green "Connected".
        return not Keys(dev).locate(p) and colour_count(p, (620, 100, 788, 300),
                                                        TOUCH_ACCENT, 30) > 20
    png, joined = wait_shot(dev, "wifi-joined", connected, patience=90)
    joined_after = time.time() - sent
    _, out = dev.sh(f"nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    f" | sed 's/^/W| /'; ip -4 -o addr show {staif} | sed 's/^/W| /';"
                    " nmcli -t -f NAME,TYPE,AUTOCONNECT connection show | sed 's/^/W| /';"
                    " journalctl -b -u chesspi -o cat | grep 'Wi-Fi' | tail -n 2 | sed 's/^/W| /'")
    state = marked(out)
    status_after = [r[12 * 3:620 * 3] for r in png[2][64:100]]
    moved = diff(status_before, status_after)
    check("wifi-touch: the right password joins: NetworkManager connected with a 192.168.77.x "
          "address, the connection kept, the status line changed, the row says Connected",
          joined and "GENERAL.STATE:100" in state and "192.168.77." in state
          and f"{WIFI_SSID}:802-11-wireless:yes" in state and moved > 2,
          f"{joined_after:.1f} s after Join; status line difference {moved:.1f}; {state}")
    if joined and "GENERAL.STATE:100" in state:
        timings["wifi_touch_join_s"] = round(joined_after, 1)
    _, out = dev.sh("journalctl -b -u polkit -o cat | grep -iE 'chesspi|denied|not authorized'"
                    " | sed 's/^/W| /'; journalctl -b -u NetworkManager -o cat"
                    " | grep -iE 'not authorized|denied|permission' | sed 's/^/W| /';"
                    " grep -A3 -E 'RequestScan|AddAndActivate' /run/wifi-bus.log | grep -c sender"
                    " | sed 's/^/W| calls /'; journalctl -b -u chesspi -o cat"
                    " | grep -iE 'denied|not permitted|not authori' | sed 's/^/W| /'")
    denials = marked(out)
    check("wifi-touch: no polkit or NetworkManager denial for chesspi",
          not re.search(r"denied|not authori|permission", denials, re.I), denials)
    if keep:
        return dev
    dev.console.send("poweroff\n")
    if not dev.wait_off(90):
        dev.kill()
    return None


def touch_card():
    """The SD card's boot partition (an empty CHESSBOOT FAT image, no chesspi.txt): a real card
    always has it, and without it the image's fstab waits for it (x-systemd.device-timeout)."""
    path = os.path.join(OUT, "wifi-touch-card.img")
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mkfs.vfat", "-n", "CHESSBOOT", "-C", path, str(8 * 1024)], check=True,
                   capture_output=True)
    return ("--boot-disk", path)


def touch_overlay(disk):
    """The test's scripts, and the config with the fixed pairing code, into the disk copy."""
    files = os.path.join(OUT, "wifi-touch-files")
    os.makedirs(files, exist_ok=True)
    scripts = {"ap.sh": TOUCH_AP_SCRIPT, "client.sh": TOUCH_CLIENT_SCRIPT,
               "peer.sh": TOUCH_PEER_SCRIPT, "host.pl": TOUCH_HOST_SCRIPT,
               "mdns.pl": TOUCH_MDNS_SCRIPT}
    for name, text in scripts.items():
        with open(os.path.join(files, name), "w") as f:
            f.write(text)
    shipped = os.path.join(files, "chesspi.toml.shipped")
    if os.path.exists(shipped):
        os.unlink(shipped)
    subprocess.run(["debugfs", "-R", f"dump /etc/chesspi/chesspi.toml {shipped}", disk],
                   check=True, capture_output=True)
    with open(shipped) as f:
        text, n = re.subn(r'(?m)^code = "random"$', f'code = "{TOUCH_CODE}"', f.read())
    if n != 1:
        raise RuntimeError("the image's chesspi.toml has no `code = \"random\"` line")
    config = os.path.join(files, "chesspi.toml")
    with open(config, "w") as f:
        f.write(text)
    os.chmod(config, 0o644)
    script = os.path.join(files, "debugfs.cmd")
    with open(script, "w") as f:
        f.write(f"mkdir {TOUCH_DIR}\n" + "".join(
            f"write {os.path.join(files, n)} {TOUCH_DIR}/{n}\n" for n in scripts)
            + f"rm /etc/chesspi/chesspi.toml\nwrite {config} /etc/chesspi/chesspi.toml\n")
    subprocess.run(["debugfs", "-w", "-f", script, disk], check=True, capture_output=True)


class Partner:
    """The log of the test's partner for a network game (peer.sh or host.pl) on the device."""

    def __init__(self, dev, path):
        self.dev, self.path = dev, path

    def log(self):
        return marked(self.dev.sh(f"sed 's/^/W| /' {self.path}")[1])

    def wait(self, text, patience=30):
        """The log once it has `text`, or None."""
        deadline = time.time() + patience
        while time.time() < deadline:
            said = self.log()
            if text in said:
                return said
            time.sleep(0.5)
        return None


def scholars_mate(dev, partner, stage):
    """The device's player (White, board not flipped) plays Scholar's mate by touch; each move
    must reach the partner and be acknowledged, each answer of the partner must appear on the
    device's board, and the device must say it won and store the game 1-0. Returns whether
    the game went as it should."""
    replies = dict(r.split(":") for r in TOUCH_REPLIES.split())
    for ply, uci in zip(range(0, 8, 2), TOUCH_GAME):
        last = dev.shot(f"before-{uci}")
        dev.tap(centre(uci[:2]))
        time.sleep(0.6)
        dev.tap(centre(uci[2:]))
        said = partner.wait(f'"type":"move","ply":{ply},"uci":"{uci}"')
        acked = said is not None and f'sent: {{"type":"ack","ply":{ply}}}' in said
        answer = replies.get(str(ply + 1))
        if answer is None:
            if not check(f"{stage}: {uci} by touch reaches the partner, who acknowledges it",
                         acked, said or partner.log()):
                return False
            break
        sent = f'sent: {{"type":"move","ply":{ply + 1},"uci":"{answer}"}}'
        png, shown = wait_shot(
            dev, f"after-{answer}", lambda p: {answer[:2], answer[2:]} <= set(
                changed_squares(last, p, limit=4.0)), patience=15)
        if not check(f"{stage}: {uci} by touch reaches the partner, and its {answer} is on the "
                     "device's board", acked and sent in (said or "") and shown,
                     f"changed {changed_squares(last, png)}; {said or partner.log()}"):
            return False
    # Mate: the side panel's card turns green ("You win! by checkmate") and the game is saved.
    win_card = (488, 92, 792, 154)
    png, won = wait_shot(dev, "mate",
                         lambda p: colour_count(p, win_card, TOUCH_ACCENT, 12) > 10000,
                         patience=15)
    _, out = dev.sh("grep -l 'Qxf7#' /var/lib/chesspi/games/*.pgn | tail -n 1 | xargs -r"
                    " grep -E '^\\[(White|Black|Result|Termination|ChessPIMode) '"
                    " | sed 's/^/W| /'")
    stored = marked(out)
    return check(f"{stage}: the device wins by checkmate on its screen and stores the game "
                 "(1-0, a network game)", won and '[Result "1-0"]' in stored
                 and '[ChessPIMode "lan"]' in stored, stored)


def hotspot(start_ref, timings, dev=None):
    """New game → Network → Host a game → "No router: make a hotspot": NetworkManager's
    "ChessPI hotspot" (AP, WPA2, 10.42.0.1/24 without shared mode: no DHCP, DNS or
    forwarding) on the device's radio; a partner joins it with the
    password and reaches the game's port (a wrong code gets the protocol's bad_code), then
    plays a whole game over it with the right code (peer.sh speaks PROTOCOL.md; the device's
    player taps Scholar's mate); a new game ends the network game, the hotspot closes and the
    device goes back to the network it was on (wifi-touch's, when run after it)."""
    if dev is None:
        disk = os.path.join(OUT, "disk-hotspot.ext4")
        shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
        touch_overlay(disk)
        dev = Device(disk, "hotspot", extra=touch_card())
        touch_device_tap(dev)
        took, png = dev.wait_for_screen(start_ref, "board")
        if not check("hotspot: the board on the screen", took is not None,
                     f"{took:.1f} s" if took else f"closest difference {png}"):
            dev.kill()
            return
        dev.sh("dmesg -n 1", timeout=BOOT_PATIENCE)
        _, out = dev.sh(f"sh {TOUCH_DIR}/ap.sh '{TOUCH_PSK}' 2>&1 | sed 's/^/W| /'",
                        timeout=120)
        m = re.search(r"station (\S+)", marked(out))
        if not check("hotspot: simulated radios", m is not None, marked(out)):
            dev.kill()
            return
        dev.staif = m.group(1)
    staif = dev.staif
    _, out = dev.sh(f"nmcli -t -f GENERAL.CONNECTION device show {staif} | sed 's/^/W| /'")
    before = marked(out).partition(":")[2].strip()
    # Close the Wi-Fi page if it is open (wifi-touch left it on the list).
    png = dev.shot("hotspot-start")
    close = (720, 16, 786, 60)              # the Wi-Fi page's Close (green or grey)
    if colour_count(png, close, TOUCH_ACCENT, 8) + colour_count(png, close, TOUCH_BUTTON, 8) \
            > 2000:
        dev.tap((708, 38))                  # Close: back to Settings
        time.sleep(1.2)
        png = dev.shot("hotspot-settings")
        dev.tap((256, 126))                 # Settings' Close (the green one, top left)
        time.sleep(1.2)
    dev.tap((536, 384))                     # New game
    time.sleep(1.5)
    dev.tap((673, 92))                      # Network
    time.sleep(1.0)
    dev.tap((286, 289))                     # Host a game
    time.sleep(0.8)
    dev.shot("hotspot-new-game")
    dev.tap((683, 436))                     # Start
    png, hosting = wait_shot(dev, "hotspot-hosting", lambda p: len(dialog_buttons(p)) == 2,
                             patience=20)
    buttons = dialog_buttons(png)
    if not check("hotspot: Host a game shows the waiting dialog with two buttons (hotspot, "
                 "Cancel)", hosting, f"buttons {buttons}"):
        dev.kill()
        return
    no_router = buttons[-2]
    dev.tap((400, (no_router[0] + no_router[1]) // 2))
    tapped = time.time()
    _, out = dev.sh("for i in $(seq 300); do nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION"
                    f" device show {staif} | grep -q 'CONNECTION:ChessPI hotspot' &&"
                    f" nmcli -t -f GENERAL.STATE device show {staif} | grep -q ':100' && break;"
                    " sleep 0.2; done; echo \"W| at $(date +%s.%N)\";"
                    f" nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    " | sed 's/^/W| /'; nmcli -s -t -f 802-11-wireless.ssid,802-11-wireless.mode,"
                    "802-11-wireless-security.key-mgmt,802-11-wireless-security.proto,"
                    "802-11-wireless-security.psk,ipv4.method connection show 'ChessPI hotspot'"
                    f" | sed 's/^/W| /'; ip -4 -o addr show {staif} | sed 's/^/W| /';"
                    f" iw dev {staif} info | grep -E 'type|channel' | sed 's/^/W| /';"
                    " pgrep -a dnsmasq | grep -o 'dhcp-range=[^ ]*' | sed 's/^/W| /';"
                    " echo \"W| ip_forward:$(cat /proc/sys/net/ipv4/ip_forward)\";"
                    " journalctl -b -u chesspi -o cat | grep -i 'hotspot' | sed 's/^/W| /'",
                    timeout=120)
    up_after = time.time() - tapped
    state = marked(out)
    ssid = re.search(r"802-11-wireless.ssid:(.+)", state)
    psk = re.search(r"802-11-wireless-security.psk:(\d{16})$", state, re.M)
    # Its own address only: no shared mode (no dnsmasq handing out addresses and relaying
    # DNS, no forwarding onward).
    ok = ("CONNECTION:ChessPI hotspot" in state and "GENERAL.STATE:100" in state
          and "802-11-wireless.mode:ap" in state and "ipv4.method:manual" in state
          and "inet 10.42.0.1/24" in state and "dhcp-range=10.42." not in state
          and "ip_forward:0" in state
          and "type AP" in state and ssid is not None and psk is not None)
    check("hotspot: \"No router: make a hotspot\": NetworkManager's ChessPI hotspot up in AP "
          "mode (WPA2, sixteen digits, 10.42.0.1/24, no DHCP or forwarding) on the device's "
          "radio", ok,
          f"{up_after:.1f} s after the tap (with the shell's polling); {state}")
    if not ok:
        dev.shot("hotspot-failed")
        dev.kill()
        return
    timings["hotspot_up_s"] = round(up_after, 1)
    png = dev.shot("hotspot-open")
    host = re.search(r"inet (10\.42\.\d+\.\d+)/", state)
    host = host.group(1) if host else "10.42.0.1"
    _, out = dev.sh(f"bash {TOUCH_DIR}/client.sh '{ssid.group(1).strip()}' '{psk.group(1)}'"
                    f" {host} 2>&1 | sed 's/^/W| /'", timeout=120)
    partner = marked(out)
    check("hotspot: a partner joins the hotspot with its password (WPA2) and the host's game "
          "answers its hello with bad_code over it",
          "wpa_state=COMPLETED" in partner and '"bad_code"' in partner, partner)
    # Discovery on the hotspot: the host's game answers a DNS-SD query from the partner, with
    # the hotspot's address (the interface came up after the game was announced).
    _, out = dev.sh(f"ip netns exec client timeout 30 perl {TOUCH_DIR}/mdns.pl 10.42.0.50 2>&1"
                    " | sed 's/^/W| /'", timeout=60)
    said = marked(out)
    check("hotspot: the host's game is found by mDNS over the hotspot (DNS-SD _chesspi._tcp, "
          f"address {host})", "answer from" in said and f"A {host}" in said, said)
    # The game: the partner (still in the namespace "client", on the hotspot) says hello with
    # the right code; the device's player plays Scholar's mate by touch, the partner answers.
    dev.sh(f"(ip netns exec client setsid bash {TOUCH_DIR}/peer.sh {host} {TOUCH_CODE}"
           f" {TOUCH_REPLIES} > /run/peer.log 2>&1 < /dev/null &)")

    partner = Partner(dev, "/run/peer.log")
    said = partner.wait('"type":"welcome"')
    you = re.search(r'"you":"(\w+)"', said or "")
    png, board = wait_shot(dev, "hotspot-paired", lambda p: not dialog_buttons(p), patience=20)
    if not check("hotspot: the partner's hello with the right code over the hotspot gets the "
                 "host's welcome (it plays Black), and the device's dialog gives way to the board",
                 you is not None and you.group(1) == "black" and board, said or partner.log()):
        dev.kill()
        return
    paired = time.time()
    if not scholars_mate(dev, partner, "hotspot"):
        dev.kill()
        return
    timings["hotspot_game_s"] = round(time.time() - paired, 1)
    # A new game against the computer ends the network game: the partner is told (`bye`, the
    # connection closed), the hotspot closes and the device goes back.
    dev.tap((536, 384))                     # New game
    time.sleep(1.5)
    dev.tap((105, 92))                      # Play the computer
    time.sleep(0.8)
    dev.shot("hotspot-new-game-computer")
    dev.tap((683, 436))                     # Start
    tapped = time.time()
    said = partner.wait("closed by the host", patience=20)
    check("hotspot: a new game tells the partner (bye) and closes the connection",
          said is not None and '"type":"bye"' in said, said or partner.log())
    want = f"STATE:100 .*CONNECTION:{before}" if before else "STATE:30 "
    _, out = dev.sh(f"for i in $(seq 300); do nmcli -t -f NAME connection show"
                    f" | grep -q '^ChessPI hotspot$' || {{ nmcli -t -f GENERAL.STATE,"
                    f"GENERAL.CONNECTION device show {staif} | tr '\\n' ' '"
                    f" | grep -qE '{want}' && break; }};"
                    " sleep 0.2; done; echo \"W| at $(date +%s.%N)\";"
                    " nmcli -t -f NAME connection show | sed 's/^/W| connection /';"
                    f" nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    f" | sed 's/^/W| /'; ip -4 -o addr show {staif} | sed 's/^/W| /';"
                    " journalctl -b -u chesspi -o cat | grep -i 'Wi-Fi' | tail -n 3"
                    " | sed 's/^/W| /'", timeout=120)
    back_after = time.time() - tapped
    state = marked(out)
    gone = "connection ChessPI hotspot" not in state
    returned = (f"CONNECTION:{before}" in state and "GENERAL.STATE:100" in state
                and "192.168.77." in state) if before else True
    check("hotspot: after the game the hotspot closes" +
          (f" and the device is back on {before}" if before else ""),
          gone and returned, f"{back_after:.1f} s after Start; {state}")
    if gone and returned:
        timings["hotspot_closed_back_s"] = round(back_after, 1)
    dev.shot("hotspot-after-game")
    _, out = dev.sh("journalctl -b -u polkit -o cat | grep -iE 'denied|not authorized'"
                    " | sed 's/^/W| /'; journalctl -b -u NetworkManager -o cat"
                    " | grep -iE 'not authorized|denied' | sed 's/^/W| /'")
    check("hotspot: no polkit or NetworkManager denial", marked(out) == "", marked(out))
    dev.console.send("poweroff\n")
    if not dev.wait_off(90):
        dev.kill()


# The keypad of the Join dialog (docs/screenshots/network-keypad.png).
KEYPAD = {"1": (250, 238), "2": (350, 238), "3": (450, 238), "4": (250, 302), "5": (350, 302),
          "6": (450, 302), "7": (250, 366), "8": (350, 366), "9": (450, 366), "0": (410, 430),
          ".": (550, 302)}
KEYPAD_OK = (536, 430)


def keypad_type(dev, text):
    for key in text:
        dev.tap(KEYPAD[key])
        time.sleep(0.4)
    dev.tap(KEYPAD_OK)


def hotspot_join(start_ref, timings):
    """The guest's side of a game without a router: another ChessPI's hotspot (a WPA2 access
    point named and keyed as a ChessPI makes them, the host of the game protocol in host.pl
    behind it) appears in Join a game; tapped, its password typed on the keypad, the device
    joins it through NetworkManager; Enter address and the code reach the game; Scholar's mate
    by touch; a new game ends it and the device leaves the hotspot's network."""
    disk = os.path.join(OUT, "disk-hotspot-join.ext4")
    shutil.copyfile(os.path.join(DEVICE, "rootfs.ext4"), disk)
    touch_overlay(disk)
    dev = Device(disk, "hotspot-join", extra=touch_card())
    touch_device_tap(dev)
    took, png = dev.wait_for_screen(start_ref, "board")
    if not check("hotspot-join: the board on the screen", took is not None,
                 f"{took:.1f} s" if took else f"closest difference {png}"):
        dev.kill()
        return
    dev.sh("dmesg -n 1", timeout=BOOT_PATIENCE)
    _, out = dev.sh(f"sh {TOUCH_DIR}/ap.sh '{TOUCH_OTHER_PSK}' '{TOUCH_OTHER_SSID}'"
                    f" {TOUCH_OTHER_NET} 2>&1 | sed 's/^/W| /'", timeout=120)
    m = re.search(r"station (\S+)", marked(out))
    if not check("hotspot-join: simulated radios, the other ChessPI's hotspot in the namespace",
                 m is not None, marked(out)):
        dev.kill()
        return
    staif = m.group(1)
    dev.sh(f"(ip netns exec ap setsid perl {TOUCH_DIR}/host.pl {TOUCH_OTHER_NET}.1 {TOUCH_CODE}"
           f" {TOUCH_REPLIES} > /run/host.log 2>&1 < /dev/null &)")
    other = Partner(dev, "/run/host.log")
    check("hotspot-join: the other ChessPI's game listens", other.wait("listening", 10)
          is not None, other.log())
    dev.tap((536, 384))                     # New game
    time.sleep(1.5)
    dev.tap((673, 92))                      # Network
    time.sleep(1.0)
    dev.tap((625, 289))                     # Join a game
    time.sleep(0.8)
    dev.tap((683, 436))                     # Start
    started = time.time()
    # The list: the hotspot's row above Enter address and Cancel (the Wi-Fi thread looks every
    # few seconds while the list is open).
    png, listed = wait_shot(dev, "listed", lambda p: len(dialog_buttons(p)) == 3, patience=45)
    buttons = dialog_buttons(png)
    if not check("hotspot-join: Join a game lists the other ChessPI's hotspot", listed,
                 f"{time.time() - started:.1f} s after Start; buttons {buttons}"):
        dev.kill()
        return
    timings["hotspot_listed_s"] = round(time.time() - started, 1)
    dev.tap((400, (buttons[0][0] + buttons[0][1]) // 2))
    time.sleep(1.0)
    dev.shot("password")
    # A wrong password first: the keypad comes back with the refusal in red.
    wrong = TOUCH_OTHER_PSK[:-1] + str((int(TOUCH_OTHER_PSK[-1]) + 1) % 10)
    keypad_type(dev, wrong)
    tapped = time.time()
    message = (200, 176, 600, 204)          # the keypad's message line
    png, refused = wait_shot(dev, "wrong-password",
                             lambda p: colour_count(p, message, TOUCH_DANGER, 40) > 100,
                             patience=40)
    check("hotspot-join: a wrong password is refused and the keypad asks again (in red)",
          refused, f"{time.time() - tapped:.1f} s after OK")
    if refused:
        timings["hotspot_wrong_refused_s"] = round(time.time() - tapped, 1)
    keypad_type(dev, TOUCH_OTHER_PSK)
    tapped = time.time()
    _, out = dev.sh("for i in $(seq 300); do nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION"
                    f" device show {staif} | tr '\\n' ' ' | grep -q 'STATE:100 .*CONNECTION:"
                    "ChessPI game' && break; sleep 0.2; done; echo \"W| at $(date +%s.%N)\";"
                    f" nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    " | sed 's/^/W| /'; nmcli -t -f 802-11-wireless.ssid,connection.autoconnect"
                    " connection show 'ChessPI game' | sed 's/^/W| /';"
                    f" ip -4 -o addr show {staif} | sed 's/^/W| /'", timeout=120)
    joined_after = time.time() - tapped
    state = marked(out)
    ok = ("CONNECTION:ChessPI game" in state and "GENERAL.STATE:100" in state
          and f"802-11-wireless.ssid:{TOUCH_OTHER_SSID}" in state
          and "connection.autoconnect:no" in state
          and re.search(rf"inet {re.escape(TOUCH_OTHER_NET)}\.[2-9]/24", state) is not None)
    if not check("hotspot-join: its password on the keypad joins the hotspot (NetworkManager's "
                 "\"ChessPI game\", not joined by itself later)", ok,
                 f"{joined_after:.1f} s after OK; {state}"):
        dev.shot("join-failed")
        dev.kill()
        return
    timings["hotspot_joined_s"] = round(joined_after, 1)
    # On the hotspot's network: the list again (Enter address, Cancel). The host here does
    # not announce itself by mDNS: its address and code are typed, as the list offers.
    png, browsing = wait_shot(dev, "browsing", lambda p: len(dialog_buttons(p)) == 2,
                              patience=20)
    buttons = dialog_buttons(png)
    if not check("hotspot-join: once joined, the list is back", browsing, f"buttons {buttons}"):
        dev.kill()
        return
    dev.tap((400, (buttons[0][0] + buttons[0][1]) // 2))    # Enter address
    time.sleep(1.0)
    keypad_type(dev, f"{TOUCH_OTHER_NET}.1")
    time.sleep(1.0)
    dev.shot("code")
    keypad_type(dev, TOUCH_CODE)
    said = other.wait('sent: {"type":"welcome"', patience=20)
    png, board = wait_shot(dev, "paired", lambda p: not dialog_buttons(p), patience=20)
    if not check("hotspot-join: the address and the code reach the other ChessPI's game over "
                 "its hotspot (welcome: the device plays White)", said is not None and board,
                 said or other.log()):
        dev.kill()
        return
    if not scholars_mate(dev, other, "hotspot-join"):
        dev.kill()
        return
    # A new game against the computer: bye, and the hotspot's network is left (the device had
    # none before, so it ends disconnected and the game's connection is gone).
    dev.tap((536, 384))                     # New game
    time.sleep(1.5)
    dev.tap((105, 92))                      # Play the computer
    time.sleep(0.8)
    dev.tap((683, 436))                     # Start
    tapped = time.time()
    said = other.wait("closed by the guest", patience=20)
    check("hotspot-join: a new game says bye to the other ChessPI",
          said is not None and '"type":"bye"' in said, said or other.log())
    _, out = dev.sh("for i in $(seq 300); do nmcli -t -f NAME connection show"
                    " | grep -q '^ChessPI game$' || break; sleep 0.2; done;"
                    " echo \"W| at $(date +%s.%N)\";"
                    " nmcli -t -f NAME connection show | sed 's/^/W| connection /';"
                    f" nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show {staif}"
                    " | sed 's/^/W| /'", timeout=120)
    state = marked(out)
    left = "connection ChessPI game" not in state and "CONNECTION:ChessPI game" not in state
    check("hotspot-join: after the game the device leaves the hotspot (its connection removed)",
          left, f"{time.time() - tapped:.1f} s after Start; {state}")
    if left:
        timings["hotspot_left_s"] = round(time.time() - tapped, 1)
    dev.shot("after-game")
    _, out = dev.sh("journalctl -b -u polkit -o cat | grep -iE 'denied|not authorized'"
                    " | sed 's/^/W| /'; journalctl -b -u NetworkManager -o cat"
                    " | grep -iE 'not authorized|denied' | sed 's/^/W| /'")
    check("hotspot-join: no polkit or NetworkManager denial", marked(out) == "", marked(out))
    dev.console.send("poweroff\n")
    if not dev.wait_off(90):
        dev.kill()


def main():
    global HOST_APP
    os.makedirs(OUT, exist_ok=True)
    for f in ("rootfs.ext4", "vmlinuz", "initrd.img"):
        if not os.path.exists(os.path.join(DEVICE, f)):
            sys.exit(f"target/device/{f} missing: run scripts/device-image first")
    HOST_APP = os.environ.get("CHESSPI_HOST_APP", os.path.join(ROOT, "target", "debug", "chesspi"))
    start_ref = reference("start")
    pawn_light = square_pixels(start_ref, "e2")   # a white pawn on a light square
    empty_dark = square_pixels(start_ref, "e3")

    stages = sys.argv[1:] or ["play", "power-key", "battery", "bare-pi", "late-drm",
                              "late-drm-control", "sound", "usb", "grow", "splash", "wifi-card",
                              "wifi-touch", "hotspot", "hotspot-join"]
    timings = {}
    if "play" in stages:
        play(start_ref, pawn_light, empty_dark, timings)
    if "power-key" in stages:
        power_key(start_ref, pawn_light, timings)
    if "battery" in stages:
        battery(start_ref, timings)
    if "bare-pi" in stages:
        bare_pi(start_ref, timings)
    if "late-drm" in stages:
        late_drm(start_ref, timings)
    if "late-drm-control" in stages:
        late_drm_control(start_ref, timings)
    if "sound" in stages:
        sound(start_ref, timings)
    if "usb" in stages:
        usb(start_ref, timings)
    if "grow" in stages:
        grow(start_ref, timings)
    if "splash" in stages:
        splash(start_ref, timings)
    if "wifi-card" in stages:
        wifi_card(start_ref, timings)
    if "wifi-touch" in stages:
        kept = wifi_touch(start_ref, timings, keep="hotspot" in stages)
        if "hotspot" in stages:
            hotspot(start_ref, timings, kept)
    elif "hotspot" in stages:
        hotspot(start_ref, timings)
    if "hotspot-join" in stages:
        hotspot_join(start_ref, timings)
    with open(os.path.join(OUT, "timings.json"), "w") as f:
        json.dump(timings, f, indent=1)
    log(f"timings: {timings}")


if __name__ == "__main__":
    HOST_APP = ""
    try:
        main()
    except Exception:  # a broken step: say where, then count it as a failure
        traceback.print_exc()
        results.append(("the test ran to its end", False, ""))
    finally:
        for device in RUNNING:
            if device.proc.poll() is None:
                device.kill()
        failed = [r for r in results if not r[1]]
        log(f"{len(results) - len(failed)} of {len(results)} checks passed")
        sys.exit(1 if failed or not results else 0)
