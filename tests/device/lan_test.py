#!/usr/bin/env python3
"""ChessPI's LAN test on a real (virtual) network: two guests of the device system
(scripts/device-image) on a private Ethernet segment of their own (scripts/device-run
--net-peer: two Unix datagram sockets, nothing on the host's network) find each other by mDNS
and play a game by touch. The cable is pulled (QMP set_link off) while a move is on its way,
both screens say the connection is lost, the cable goes back in, and the game goes on from the
same position on both.

The game is driven only through QMP (screendump, touches), as two people would. The serial
root console only reads what the systems say (addresses, unit state, journal). The devices'
config sets a fixed pairing code (`[lan] code`, a documented setting) so the guest's player
knows it: reading the host's random code off its screen would need text recognition.

Run by scripts/test-device-lan; Python 3 standard library only. Pictures and logs go to
target/device/test/lan/. Exit status 0 when every check passed.
"""

import os
import re
import subprocess
import sys
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import boot_test as bt  # noqa: E402  (the QMP, console and picture helpers)
from boot_test import check, log  # noqa: E402

OUT = os.path.join(bt.DEVICE, "test", "lan")
CODE = "2580"
# The two devices: host name (the name LAN play shows), MAC address.
HOST = ("kitchen", "52:54:00:00:c0:01")
GUEST = ("study", "52:54:00:00:c0:02")
ACCENT = (91, 180, 80)  # Theme.accent: primary buttons
# The side panel's status bar (top right: "● Connected" / "○ Connection lost") and status line.
LINK_BOX = (600, 0, 800, 26)
# Buttons, from the screens (docs/screenshots): side panel, New game form, keypad.
NEW_GAME = (536, 384)
NETWORK = (673, 92)
HOST_A_GAME = (286, 289)
JOIN_A_GAME = (625, 289)
START = (683, 436)
KEYS = {"1": (250, 238), "2": (350, 238), "3": (450, 238), "4": (250, 302), "5": (350, 302),
        "6": (450, 302), "7": (250, 366), "8": (350, 366), "9": (450, 366), "0": (410, 430)}
KEYPAD_OK = (536, 430)


def config_text(template):
    """The package's config with the fixed pairing code."""
    text, n = re.subn(r'(?m)^code = "random"$', f'code = "{CODE}"', template)
    if n != 1:
        raise RuntimeError("the image's chesspi.toml has no `code = \"random\"` line")
    return text


def make_disks():
    """One copy of rootfs.ext4 with the config, and a qcow2 overlay on it per device."""
    base = os.path.join(OUT, "lan-base.ext4")
    subprocess.run(["cp", "--sparse=always", os.path.join(bt.DEVICE, "rootfs.ext4"), base],
                   check=True)
    shipped = os.path.join(OUT, "chesspi.toml.shipped")
    subprocess.run(["debugfs", "-R", f"dump /etc/chesspi/chesspi.toml {shipped}", base],
                   check=True, capture_output=True)
    with open(shipped) as f:
        text = config_text(f.read())
    ours = os.path.join(OUT, "chesspi.toml")
    with open(ours, "w") as f:
        f.write(text)
    os.chmod(ours, 0o644)
    script = os.path.join(OUT, "debugfs.cmd")
    with open(script, "w") as f:
        f.write(f"rm /etc/chesspi/chesspi.toml\nwrite {ours} /etc/chesspi/chesspi.toml\n")
    subprocess.run(["debugfs", "-w", "-f", script, base], check=True, capture_output=True)
    disks = []
    for name in (HOST[0], GUEST[0]):
        disk = os.path.join(OUT, f"{name}.qcow2")
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", base, "-F", "raw",
                        disk], check=True)
        disks.append(disk)
    return disks


def boot(disk, me, peer):
    name, mac = me
    return bt.Device(disk, name, out=OUT, extra=[
        "--format", "qcow2", "--hostname", name, "--smp", "1", "--mac", mac,
        "--net-peer", f"{os.path.join(OUT, name + '.net')}:{os.path.join(OUT, peer[0] + '.net')}"])


def box(png, area):
    x0, y0, x1, y1 = area
    return [row[x0 * 3:x1 * 3] for row in png[2][y0:y1]]


def square_centre(square, flipped):
    x, y = bt.square_box(square, flipped)
    return x + bt.SQUARE // 2, y + bt.SQUARE // 2


def inner(png, square, flipped):
    """A square without its edges (the coordinate letters sit in the corners)."""
    x0, y0 = bt.square_box(square, flipped)
    return [row[(x0 + 12) * 3:(x0 + 48) * 3] for row in png[2][y0 + 12:y0 + 48]]


def position_diff(a, b, a_flipped=False, b_flipped=True):
    """The squares whose pieces differ between two boards (one seen from each side)."""
    return [s for s in bt.SQUARES
            if bt.diff(inner(a, s, a_flipped), inner(b, s, b_flipped)) > 6]


def move(dev, uci, flipped, tracking):
    dev.qmp.touch([square_centre(uci[:2], flipped)], tracking)
    time.sleep(0.5)
    dev.qmp.touch([square_centre(uci[2:4], flipped)], tracking + 1)


def wait_until(test, timeout):
    """Polls `test` each second until it returns something true (returned) or time is up."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = test()
        if result:
            return result
        time.sleep(1)
    return None


def accent_buttons(png, area):
    """Rows (y) of the primary (accent) buttons whose centre column is in `area`."""
    x0, y0, x1, y1 = area
    cx = (x0 + x1) // 2
    rows = [y for y in range(y0, y1)
            if bt.near(png[2][y][cx * 3:cx * 3 + 3], ACCENT, 12)]
    groups = []
    for y in rows:
        if groups and y - groups[-1][-1] <= 1:
            groups[-1].append(y)
        else:
            groups.append([y])
    return [(cx, (g[0] + g[-1]) // 2) for g in groups if len(g) >= 20]


def same_position(a, b, label, timeout=60, unlike=None):
    """Waits until both screens show the same position (and, given `unlike` = (picture,
    flipped), another one than that picture); returns the two pictures and the last
    differing squares."""
    last = {}

    def test():
        pa, pb = a.shot(label), b.shot(label)
        last["d"] = position_diff(pa, pb)
        if unlike is not None and not position_diff(unlike[0], pa, unlike[1], False):
            last["d"] = "no change yet"
            return None
        return (pa, pb) if not last["d"] else None
    got = wait_until(test, timeout)
    return got, last.get("d")


def link_shown(dev, label, connected_box, want_connected, timeout):
    """Waits until the status bar shows (or no longer shows) the connected link."""
    def test():
        png = dev.shot(label)
        d = bt.diff(box(png, LINK_BOX), connected_box)
        return png if (d < 2) == want_connected else None
    return wait_until(test, timeout)


def system_checks(dev, partner):
    """What the system says: link-local addresses, the service's first start, the game in the
    journal with the partner's name, nothing denied, nothing network-related before the app."""
    _, addrs = dev.sh("networkctl status --no-pager -n 0 | grep -A3 Address")
    state = bt.service_state(dev)
    game = bt.journal_grep(dev, "network game|lan:")
    denials = bt.journal_denials(dev)
    _, chain = dev.sh("systemd-analyze critical-chain chesspi.service --no-pager")
    with open(os.path.join(OUT, f"{dev.name}-system.txt"), "w") as f:
        f.write(f"{addrs}\n{state}\n{game}\n{chain}\n")
    check(f"{dev.name}: IPv4 link-local address without any server",
          re.search(r"169\.254\.\d+\.\d+", addrs) is not None, addrs.strip())
    check(f"{dev.name}: first start succeeded (NRestarts=0)", bt.first_start_ok(state),
          str(state))
    check(f"{dev.name}: the journal names the partner {partner}",
          re.search(rf"network game \S+ with {partner}", game) is not None, game[-400:])
    check(f"{dev.name}: nothing denied in the service's journal", denials == "", denials)
    check(f"{dev.name}: no network unit in chesspi's critical chain",
          bt.chain_without_network(chain), " ".join(chain.split("\n")[3:5]).strip())


def lan(start_ref, timings):
    disks = make_disks()
    host = boot(disks[0], HOST, GUEST)
    guest = boot(disks[1], GUEST, HOST)
    ups = []
    for dev in (host, guest):
        took, png = dev.wait_for_screen(start_ref, "board")
        check(f"{dev.name}: the board on the KMS screen", took is not None,
              f"{took:.1f} s after QEMU started" if took else f"closest {png}")
        if took is None:
            return
        ups.append(round(took, 1))
    timings["boards_after_s"] = ups

    # The host's player: New game, Network, Host a game (White), Start: the pairing code.
    t0 = time.time()
    for tap in (NEW_GAME, NETWORK, HOST_A_GAME, START):
        host.qmp.touch([tap], 1)
        time.sleep(1.5)
    hosting = host.shot("hosting")
    check("host: the pairing dialog is up", bt.board_diff(hosting, start_ref) > 30)

    # The guest's player: New game, Network, Join a game, Start: the list fills from mDNS.
    for tap in (NEW_GAME, NETWORK, JOIN_A_GAME, START):
        guest.qmp.touch([tap], 1)
        time.sleep(1.5)
    # The list: a primary (accent) button per host found, above "Enter address" and Cancel.
    browsing = time.time()
    dialog_area = (190, 0, 610, 480)
    found = wait_until(lambda: accent_buttons(
        guest.shot("join-list"), dialog_area), 90)
    check("guest: the hosting ChessPI appears in Join's list (mDNS)", found is not None,
          f"{time.time() - browsing:.1f} s after Start" if found else "no entry in 90 s")
    if not found:
        return
    timings["listed_after_s"] = round(time.time() - browsing, 1)
    guest.qmp.touch([found[0]], 1)
    time.sleep(1.5)
    guest.shot("keypad")
    for digit in CODE:
        guest.qmp.touch([KEYS[digit]], 1)
        time.sleep(0.4)
    guest.qmp.touch([KEYPAD_OK], 1)

    # Paired: both show the start position, the guest from Black's side.
    got, d = same_position(host, guest, "paired", 60)
    check("both show the game's start position (the guest from Black's side)",
          got is not None and bt.board_diff(got[0], start_ref) < 3, f"differing: {d}")
    if not got:
        return
    timings["paired_after_s"] = round(time.time() - t0, 1)
    connected = {dev.name: box(png, LINK_BOX) for dev, png in zip((host, guest), got)}

    # A few moves by touch, each seen on the other's screen.
    tracking = 10
    for dev, uci, flipped in ((host, "e2e4", False), (guest, "e7e5", True),
                              (host, "g1f3", False)):
        before = dev.shot(f"before-{uci}")
        move(dev, uci, flipped, tracking)
        tracking += 2
        got, d = same_position(host, guest, f"after-{uci}", 30, unlike=(before, flipped))
        moved = got is not None and bool(position_diff(before, got[0], flipped, False))
        check(f"{dev.name} plays {uci} by touch; both screens show it", moved,
              f"differing: {d}")
        if not moved:
            return

    # The cable pulled, then the guest plays b8-c6 at once: its screen still says connected
    # (silence counts as lost after 4 s), so the move leaves into the cut.
    before = guest.shot("before-cut")
    host.qmp.call("set_link", name="nic0", up=False)
    cut = time.time()
    guest.qmp.touch([square_centre("b8", True)], tracking)
    time.sleep(0.5)
    guest.qmp.touch([square_centre("c6", True)], tracking + 1)
    tracking += 2
    lost = {}
    for dev in (host, guest):
        lost[dev.name] = link_shown(dev, "cut", connected[dev.name], False, 30)
        check(f"{dev.name}: the screen says the connection is lost", lost[dev.name] is not None,
              f"{time.time() - cut:.1f} s after the cut")
    if None in lost.values():
        return
    # The host still marks its own last move (g1-f3) where the guest marks b8-c6.
    differing = set(position_diff(lost[HOST[0]], lost[GUEST[0]]))
    check("during the cut b8-c6 is on the guest's screen only",
          {"b8", "c6"} <= differing <= {"b8", "c6", "g1", "f3"}, f"differing: {differing}")
    time.sleep(max(0.0, 15 - (time.time() - cut)))
    host.shot("cut-15s")
    guest.shot("cut-15s")

    host.qmp.call("set_link", name="nic0", up=True)
    back = time.time()
    for dev in (host, guest):
        png = link_shown(dev, "restored", connected[dev.name], True, 90)
        check(f"{dev.name}: connected again after the cable is back", png is not None,
              f"{time.time() - back:.1f} s")
    timings["reconnected_after_s"] = round(time.time() - back, 1)
    got, d = same_position(host, guest, "resumed", 30, unlike=(before, True))
    check("the game resumes with the same position on both, b8-c6 included",
          got is not None and bool(position_diff(before, got[1], True, True)),
          f"differing: {d}")

    # One more move each.
    for dev, uci, flipped in ((host, "f1c4", False), (guest, "g8f6", True)):
        before = dev.shot(f"before-{uci}")
        move(dev, uci, flipped, tracking)
        tracking += 2
        got, d = same_position(host, guest, f"after-{uci}", 30, unlike=(before, flipped))
        check(f"after the cut: {dev.name} plays {uci}; both screens show it",
              got is not None and bool(position_diff(before, got[0], flipped, False)),
              f"differing: {d}")

    system_checks(host, GUEST[0])
    system_checks(guest, HOST[0])
    resent = bt.journal_grep(guest, "resending move")
    check("guest: b8-c6 was sent again on the new connection (it was lost in the cut)",
          "resending move 3 (b8c6)" in resent, resent)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in ("rootfs.ext4", "vmlinuz", "initrd.img"):
        if not os.path.exists(os.path.join(bt.DEVICE, f)):
            sys.exit(f"target/device/{f} missing: run scripts/device-image first")
    bt.OUT = OUT
    bt.HOST_APP = os.environ.get("CHESSPI_HOST_APP",
                                 os.path.join(bt.ROOT, "target", "debug", "chesspi"))
    start_ref = bt.reference("start")
    timings = {}
    started = time.time()
    lan(start_ref, timings)
    timings["total_s"] = round(time.time() - started, 1)
    log(f"timings: {timings}")


if __name__ == "__main__":
    try:
        main()
    except Exception:  # a broken step: say where, then count it as a failure
        traceback.print_exc()
        bt.results.append(("the test ran to its end", False, ""))
    finally:
        for device in bt.RUNNING:
            if device.proc.poll() is None:
                device.kill()
        failed = [r for r in bt.results if not r[1]]
        log(f"{len(bt.results) - len(failed)} of {len(bt.results)} checks passed")
        sys.exit(1 if failed or not bt.results else 0)
