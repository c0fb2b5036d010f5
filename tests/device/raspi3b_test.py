#!/usr/bin/env python3
"""ChessPI's SD card image booted in QEMU's `raspi3b` machine (scripts/test-raspi3b).

Python 3 standard library only; needs qemu-system-aarch64 (raspi3b), mtools, sfdisk, debugfs,
dumpe2fs. What it does:

1. copies target/device/chesspi-pi3.img (or the image given) into target/device/raspi3b/ and
   pads the copy to the next power of two (QEMU's SD card model requires that size);
2. reads config.txt from the card's FAT partition as the Pi's firmware would for a Pi 3 B
   (`kernel=`, `initramfs FILE followkernel`, `device_tree=`, `cmdline=`, `os_prefix=`, the
   `[all]`/`[pi3]` sections; with `upstream_kernel=1` and no `device_tree=` the firmware picks
   the upstream bcm2837-rpi-3-b.dtb) and takes exactly those files from the card; a missing or
   unloadable one is a failure;
3. boots them with QEMU's raspi3b machine (`-kernel -dtb -initrd -append`), the padded copy as
   the SD card, the card's own cmdline.txt with the changes the test needs (printed, and in
   docs/DEPLOY.md); reads the serial console and, through the image's test shell, checks the
   root file system, systemd, /boot/firmware, the root partition's growth and chesspi.service.

The copy's root file system gets two small drop-ins (debugfs, no mount) so that the image's
test shell (chesspi-test-console.service, written for ttyAMA0 in QEMU's virt machine) runs on
ttyS1: on a Pi 3 B with the upstream device tree the PL011 (ttyAMA0) belongs to the Bluetooth
chip (a serdev child in the dtb, so no /dev/ttyAMA0 exists), and the card's console is the mini
UART, ttyS1 — QEMU's second serial port on raspi3b.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGE = os.path.join(ROOT, "target/device/chesspi-pi3.img")
WORK = os.path.join(ROOT, "target/device/raspi3b")
TIMEOUT = float(os.environ.get("CHESSPI_RASPI3B_TIMEOUT", "900"))

results = []
timings = {}


def log(text):
    print(f"raspi3b: {text}", flush=True)


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))
    print(f"{'PASS' if ok else 'FAIL'}: {name}{(' — ' + detail) if detail else ''}", flush=True)
    return ok


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


# --- the card ---------------------------------------------------------------------------------

def copy_card(image):
    os.makedirs(WORK, exist_ok=True)
    copy = os.path.join(WORK, "card.img")
    if os.path.exists(copy):
        os.remove(copy)
    t = time.time()
    # Sparse: the image is 1.8 GB with about 700 MB used.
    subprocess.run(["cp", "--sparse=always", image, copy], check=True)
    size = os.path.getsize(copy)
    padded = 1 << (size - 1).bit_length()
    os.truncate(copy, padded)
    log(f"copied {image} ({size} bytes) to {copy}, padded to {padded} bytes "
        f"in {time.time() - t:.1f} s")
    return copy, size, padded


def partitions(card):
    table = json.loads(run(["sfdisk", "-J", card]))["partitiontable"]
    return table


def mtools_image(card, start):
    return f"{card}@@{start * 512}"


def fat_files(img):
    """Names in the FAT root directory (long names), lower-cased -> as written."""
    out = run(["mdir", "-b", "-i", img, "::/"])
    names = {}
    for line in out.splitlines():
        name = line.strip().lstrip(":").lstrip("/")
        if name:
            names[name.lower()] = name
    return names


def fat_get(img, name, dest):
    subprocess.run(["mcopy", "-n", "-o", "-i", img, f"::/{name}", dest], check=True,
                   capture_output=True)


def parse_config(text):
    """config.txt as the firmware of a Pi 3 B reads it: the lines outside conditional sections
    and in [all] / [pi3]; other sections ([pi4], [pi0], [cm4], filters) are skipped."""
    active = True
    settings = {}
    initramfs = None
    skipped = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            active = section in ("all", "pi3")
            if not active:
                skipped.append(section)
            continue
        if not active:
            continue
        if line.startswith("initramfs ") or line.startswith("initramfs\t"):
            parts = line.split()
            initramfs = (parts[1], parts[2] if len(parts) > 2 else "")
            continue
        if "=" in line:
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    return settings, initramfs, skipped


# --- the serial console -----------------------------------------------------------------------

class Console:
    """QEMU's second serial port (the mini UART, ttyS1) on a Unix socket: read all the time
    (QEMU stops the machine when nobody reads), logged, first sightings of boot messages timed,
    and the image's test shell driven through it."""

    def __init__(self, path, log_path, t0, events):
        deadline = time.time() + 60
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.t0 = t0
        self.events = dict(events)  # name -> regex, until seen
        self.seen = {}
        self.buffer = b""
        self.everything = b""
        self.lock = threading.Lock()
        self.log = open(log_path, "wb", buffering=0)
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        tail = ""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            now = time.time() - self.t0
            self.log.write(chunk)
            text = tail + chunk.decode(errors="replace")
            with self.lock:
                self.buffer = (self.buffer + chunk)[-2_000_000:]
                self.everything = (self.everything + chunk)[-4_000_000:]
                for name, pattern in list(self.events.items()):
                    m = re.search(pattern, text)
                    if m:
                        self.seen[name] = (round(now, 1), m.group(0).strip())
                        del self.events[name]
            tail = text[-4096:]
        self.closed = True

    def text(self):
        with self.lock:
            return self.everything.decode(errors="replace")

    def wait_for(self, pattern, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline and not self.closed:
            if re.search(pattern, self.text()):
                return True
            time.sleep(0.5)
        return bool(re.search(pattern, self.text()))

    def sh(self, command, timeout=120, retry=0.0):
        """Runs `command` in the guest's shell; (exit status, output). With `retry`, the line
        is sent again every `retry` s until the shell answers (input sent before the shell ran
        is lost)."""
        tag = f"{int(time.time() * 1000) % 10**8:08d}"
        # The markers are split by quotes so the terminal's echo of the line never matches.
        line = f"echo B'{tag}'; {command}; echo E'{tag}' $?\n"
        with self.lock:
            self.buffer = b""
        deadline = time.time() + timeout
        sent_at, start = None, -1
        while True:
            if sent_at is None or (retry and time.time() - sent_at > retry and start < 0):
                self.sock.sendall(line.encode())
                sent_at = time.time()
            time.sleep(0.3)
            with self.lock:
                text = self.buffer.decode(errors="replace")
            start, end = text.rfind(f"B{tag}\r\n"), text.rfind(f"E{tag} ")
            if start >= 0 and end > start:
                rest = text[end + len(f"E{tag} "):]
                if "\n" in rest:
                    out = text[start + len(tag) + 3:end].replace("\r", "")
                    return int(rest.split()[0]), out
            if time.time() > deadline or self.closed:
                raise TimeoutError(f"no answer to {command!r}")


# --- main -------------------------------------------------------------------------------------

def main():
    image = sys.argv[1] if len(sys.argv) > 1 else IMAGE
    if not os.path.exists(image):
        print(f"raspi3b: {image} missing: run scripts/device-image", file=sys.stderr)
        return 2
    for tool in ("qemu-system-aarch64", "mcopy", "mdir", "sfdisk", "debugfs", "dumpe2fs"):
        if not shutil.which(tool):
            print(f"raspi3b: {tool} not found", file=sys.stderr)
            return 2
    started = time.time()
    card, image_size, padded = copy_card(image)

    # The partition table, the labels fstab and cmdline.txt name.
    table = partitions(card)
    parts = table.get("partitions", [])
    check("the card has a DOS partition table with a FAT partition 1 and a Linux partition 2",
          table.get("label") == "dos" and len(parts) >= 2
          and parts[0]["type"].lower() in ("b", "c", "e") and parts[1]["type"] == "83",
          ", ".join(f"p{i + 1} start {p['start']} size {p['size']} type {p['type']}"
                    for i, p in enumerate(parts)))
    if len(parts) < 2:
        return summary(started)
    boot_img = mtools_image(card, parts[0]["start"])
    root_offset = parts[1]["start"] * 512
    root_dev = f"{card}?offset={root_offset}"
    label = subprocess.run(["mlabel", "-s", "-i", boot_img, "::"], capture_output=True,
                           text=True).stdout.strip()
    check("partition 1's FAT label is CHESSBOOT (fstab: LABEL=CHESSBOOT /boot/firmware)",
          re.search(r"\bCHESSBOOT\s*$", label), label)
    header = subprocess.run(["dumpe2fs", "-h", root_dev], capture_output=True, text=True).stdout
    volname = re.search(r"Filesystem volume name:\s*(\S*)", header)
    check("partition 2 is ext4 labelled root (cmdline.txt: root=LABEL=root)",
          volname and volname.group(1) == "root" and "extent" in header,
          f"volume name {volname.group(1) if volname else '?'}")

    # config.txt as the firmware reads it, and the files it names.
    names = fat_files(boot_img)
    boot = os.path.join(WORK, "boot")
    shutil.rmtree(boot, ignore_errors=True)
    os.makedirs(boot)
    if not check("config.txt on the boot partition", "config.txt" in names):
        return summary(started)
    fat_get(boot_img, names["config.txt"], os.path.join(boot, "config.txt"))
    with open(os.path.join(boot, "config.txt")) as f:
        settings, initramfs, skipped = parse_config(f.read())
    log(f"config.txt: {settings}, initramfs {initramfs}"
        + (f", sections skipped: {skipped}" if skipped else ""))
    prefix = settings.get("os_prefix", "")
    check("config.txt: arm_64bit=1 (the firmware starts the 64-bit kernel)",
          settings.get("arm_64bit") == "1", f"arm_64bit={settings.get('arm_64bit', 'unset')}")
    kernel_name = prefix + settings.get("kernel", "kernel8.img")
    if settings.get("device_tree"):
        dtb_name = settings["device_tree"]
    elif settings.get("upstream_kernel") == "1":
        dtb_name = prefix + "bcm2837-rpi-3-b.dtb"
    else:
        dtb_name = prefix + "bcm2710-rpi-3-b.dtb"
    cmdline_name = prefix + settings.get("cmdline", "cmdline.txt")
    files = {}
    missing = []
    for what, name in (("kernel", kernel_name), ("device tree", dtb_name),
                       ("command line", cmdline_name)) + (
            (("initramfs", prefix + initramfs[0]),) if initramfs else ()):
        key = name.lower()
        if key in names:
            dest = os.path.join(boot, os.path.basename(name))
            fat_get(boot_img, names[key], dest)
            files[what] = dest
        else:
            missing.append(f"{what} {name}")
    check("the files config.txt names are on the boot partition",
          not missing and initramfs is not None,
          f"kernel {kernel_name}, device tree {dtb_name}, "
          f"initramfs {initramfs[0] if initramfs else 'NONE (no initramfs line)'}"
          f"{' ' + initramfs[1] if initramfs and initramfs[1] else ''}, cmdline {cmdline_name}"
          + (f"; MISSING: {', '.join(missing)}" if missing else ""))
    if initramfs and initramfs[1] not in ("followkernel", ""):
        log(f"initramfs at a fixed address {initramfs[1]}: QEMU places it itself")
    if missing or initramfs is None:
        return summary(started)
    with open(files["kernel"], "rb") as f:
        head = f.read(64)
    # The Pi 3's firmware loads an arm64 kernel only as a plain Image; QEMU would also take a
    # gzip-compressed one, so this is checked here and not left to the boot.
    check("the kernel is an uncompressed arm64 Image (the Pi 3's firmware does not unpack one)",
          head[56:60] == b"ARM\x64", f"magic at 0x38: {head[56:60]!r}, first bytes {head[:2].hex()}")
    with open(files["device tree"], "rb") as f:
        dtb_ok = f.read(4) == b"\xd0\x0d\xfe\xed"
    check("the device tree is a flattened device tree", dtb_ok)
    with open(files["command line"]) as f:
        card_cmdline = f.read().strip()
    log(f"the card's cmdline.txt: {card_cmdline}")

    # The command line for the test: the card's, with the boot screen and the quiet kernel
    # left out and the test shell asked for.
    dropped = []
    args = []
    for arg in card_cmdline.split():
        if arg in ("quiet", "splash") or arg.startswith("loglevel="):
            dropped.append(arg)
        else:
            args.append(arg)
    args.append("chesspi.test_console")
    append = " ".join(args)
    consoles = [a.split("=", 1)[1].split(",")[0] for a in args if a.startswith("console=")]
    serial = [c for c in consoles if re.fullmatch(r"tty(S|AMA)\d+", c)]
    check("cmdline.txt names a serial console (ttyS1: the mini UART on the header pins 8/10)",
          serial, f"consoles {consoles}")
    shell_tty = serial[0] if serial else "ttyS1"
    log(f"kernel arguments for QEMU: {append} (left out: {' '.join(dropped) or 'nothing'}; "
        f"added chesspi.test_console)")

    # The test shell on the card's serial console (see the module's docstring).
    if shell_tty != "ttyAMA0":
        with tempfile.TemporaryDirectory() as tmp:
            dropin = os.path.join(tmp, "shell.conf")
            with open(dropin, "w") as f:
                f.write("# scripts/test-raspi3b: the test shell on the Pi's serial console\n"
                        f"[Service]\nTTYPath=/dev/{shell_tty}\n")
            getty = os.path.join(tmp, "getty.conf")
            with open(getty, "w") as f:
                f.write("[Unit]\nConditionKernelCommandLine=!chesspi.test_console\n")
            cmds = os.path.join(tmp, "cmds")
            base = "/etc/systemd/system"
            with open(cmds, "w") as f:
                f.write(f"mkdir {base}/chesspi-test-console.service.d\n"
                        f"write {dropin} {base}/chesspi-test-console.service.d/raspi3b-test.conf\n"
                        f"mkdir {base}/serial-getty@{shell_tty}.service.d\n"
                        f"write {getty} {base}/serial-getty@{shell_tty}.service.d/chesspi-test.conf\n")
            subprocess.run(["debugfs", "-w", "-f", cmds, root_dev], check=True,
                           capture_output=True)
            back = subprocess.run(
                ["debugfs", "-R", f"cat {base}/chesspi-test-console.service.d/raspi3b-test.conf",
                 root_dev], capture_output=True, text=True).stdout
            if f"TTYPath=/dev/{shell_tty}" not in back:
                check("the test shell's drop-in written into the copy", False, back)
                return summary(started)
        log(f"the copy's root file system: chesspi-test-console.service on /dev/{shell_tty} "
            f"(drop-in), serial-getty@{shell_tty} steps aside for it")

    # Boot.
    sock = os.path.join(WORK, "uart1.sock")
    for p in (sock,):
        if os.path.exists(p):
            os.remove(p)
    pl011_log = os.path.join(WORK, "uart0-pl011.log")
    console_log = os.path.join(WORK, "console.log")
    qemu = ["qemu-system-aarch64", "-M", "raspi3b",
            "-kernel", files["kernel"], "-dtb", files["device tree"],
            "-initrd", files["initramfs"], "-append", append,
            "-drive", f"if=sd,format=raw,file={card}",
            # serial 0: the PL011 (ttyAMA0; Bluetooth's on a Pi 3 B), serial 1: the mini UART.
            "-chardev", f"file,id=pl011,path={pl011_log}", "-serial", "chardev:pl011",
            "-chardev", f"socket,id=mini,path={sock},server=on,wait=on",
            "-serial", "chardev:mini",
            "-display", "none", "-monitor", "none", "-nodefaults"]
    log("QEMU: " + " ".join(f"'{a}'" if " " in a else a for a in qemu))
    with open(os.path.join(WORK, "qemu.cmd"), "w") as f:
        f.write(" ".join(f"'{a}'" if " " in a else a for a in qemu) + "\n")
    qemu_err = open(os.path.join(WORK, "qemu.err"), "wb")
    proc = subprocess.Popen(qemu, stdout=subprocess.DEVNULL, stderr=qemu_err,
                            start_new_session=True)
    t0 = time.time()
    events = {
        "kernel banner": r"Linux version \S+",
        "machine model": r"Machine model: [^\r\n]*",
        "initrd runs /init": r"Run /init as init process",
        "SD card found": r"mmcblk0: mmc0:[^\r\n]*",
        "root mounted": r"EXT4-fs \(mmcblk0p\d+\): mounted[^\r\n]*",
        "systemd starts": r"systemd\[1\]: systemd \d+[^ ]* running in system mode",
        "grow": r"EXT4-fs \(mmcblk0p2\): resiz[^\r\n]*",
        "kernel panic": r"Kernel panic[^\r\n]*",
        "initramfs shell": r"\(initramfs\)|Gave up waiting for root",
    }
    try:
        con = Console(sock, console_log, t0, events)
        t0 = con.t0 = time.time()  # QEMU waits for this connection before it runs
        boot_checks(con, proc, t0, padded)
    except TimeoutError as e:
        check("the guest answered", False, str(e))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        qemu_err.close()
    try:
        os.remove(sock)
    except OSError:
        pass
    with open(os.path.join(WORK, "timings.json"), "w") as f:
        json.dump(timings, f, indent=1)
    return summary(started)


def boot_checks(con, proc, t0, padded):
    def deadline_left():
        return max(5.0, TIMEOUT - (time.time() - t0))

    # The kernel and the initrd: read off the serial console.
    up = con.wait_for(r"Linux version", min(120.0, deadline_left()))
    seen = con.seen
    check("the kernel starts: its banner on the serial console (ttyS1, QEMU's second serial)",
          up, " ".join(seen.get(k, ("", ""))[1] for k in ("kernel banner", "machine model")))
    if not up:
        check("QEMU", False, open(os.path.join(WORK, "qemu.err")).read()[-2000:]
              if proc.poll() is not None else "no output")
        return
    con.wait_for(r"EXT4-fs \(mmcblk0p2\): mounted|Kernel panic|\(initramfs\)",
                 deadline_left())
    check("the initrd finds root=LABEL=root on the emulated SD card and mounts it "
          "(EXT4-fs (mmcblk0p2): mounted)", "root mounted" in con.seen and
          "mmcblk0p2" in con.seen["root mounted"][1],
          "; ".join(f"{k} at {v[0]} s" for k, v in con.seen.items()
                    if k in ("SD card found", "root mounted", "kernel panic", "initramfs shell")))
    if "root mounted" not in con.seen:
        timings.update({k: v[0] for k, v in con.seen.items()})
        return
    con.wait_for(r"running in system mode", deadline_left())
    check("systemd starts from the card's root file system",
          "systemd starts" in con.seen, con.seen.get("systemd starts", ("", ""))[1])

    # The test shell.
    try:
        status, out = con.sh("dmesg -n 1; tty; cat /proc/cmdline", timeout=deadline_left(),
                             retry=10)
    except TimeoutError:
        check("the test shell answers on the serial console", False,
              "no answer before the time limit (CHESSPI_RASPI3B_TIMEOUT)")
        timings.update({k: v[0] for k, v in con.seen.items()})
        return
    timings["shell answers"] = round(time.time() - t0, 1)
    check("the test shell answers on the serial console", status == 0, out.strip().replace("\n", " | "))

    status, out = con.sh("timeout 600 systemctl is-system-running --wait; "
                         "systemctl is-active multi-user.target", timeout=deadline_left())
    timings["startup finished"] = round(time.time() - t0, 1)
    state = out.split()
    check("systemd reaches multi-user.target (is-system-running: running or degraded)",
          len(state) >= 2 and state[0] in ("running", "degraded") and state[1] == "active",
          " ".join(state))
    status, analyze = con.sh("systemd-analyze time | head -n 2")
    log("systemd-analyze: " + " ".join(analyze.split()))
    timings["systemd-analyze"] = " ".join(analyze.split())

    status, out = con.sh("findmnt -n -o SOURCE,FSTYPE,OPTIONS /")
    check("the root file system is the card's partition 2 (findmnt /: /dev/mmcblk0p2 ext4 rw)",
          re.match(r"/dev/mmcblk0p2\s+ext4\s+rw", out.strip()), out.strip())

    # /boot/firmware from fstab (LABEL=CHESSBOOT, nofail, x-systemd.device-timeout=5s).
    status, out = con.sh("findmnt -n -o SOURCE,FSTYPE /boot/firmware; "
                         "systemctl show -p ActiveState -p Result boot-firmware.mount; "
                         "readlink -f /dev/disk/by-label/CHESSBOOT; "
                         "systemctl show -p ActiveEnterTimestampMonotonic "
                         "\"$(systemd-escape -p --suffix=device /dev/disk/by-label/CHESSBOOT)\"; "
                         "journalctl -b -o short-monotonic --no-pager "
                         "| grep -E 'CHESSBOOT|boot-firmware' | cut -c1-200")
    at_boot = re.search(r"^/dev/mmcblk0p1\s+vfat", out, re.M)
    appeared = re.search(r"ActiveEnterTimestampMonotonic=(\d+)", out)
    if appeared:
        timings["CHESSBOOT device active (guest monotonic s)"] = round(int(appeared.group(1)) / 1e6, 1)
    check("/boot/firmware mounted at boot from mmcblk0p1 (fstab LABEL=CHESSBOOT)", at_boot,
          " | ".join(out.strip().splitlines()[:9]))
    if not at_boot:
        status, out = con.sh("systemctl start boot-firmware.mount; "
                             "findmnt -n -o SOURCE,FSTYPE /boot/firmware; "
                             "ls /boot/firmware/config.txt /boot/firmware/cmdline.txt")
        check("fstab's CHESSBOOT line mounts mmcblk0p1 when started after the boot "
              "(systemctl start boot-firmware.mount)",
              re.search(r"^/dev/mmcblk0p1\s+vfat", out, re.M) and "config.txt" in out,
              " | ".join(out.strip().splitlines()))

    # The root partition grown to the (padded) card.
    status, out = con.sh(
        "systemctl show -p ActiveState -p Result -p ExecMainStatus chesspi-grow-root.service; "
        "journalctl -b -u chesspi-grow-root -o short-monotonic --no-pager | cut -c1-200 | tail -n 8; "
        "echo part $(cat /sys/class/block/mmcblk0p2/start) $(cat /sys/class/block/mmcblk0p2/size) "
        "$(cat /sys/class/block/mmcblk0/size); "
        "tune2fs -l /dev/mmcblk0p2 | grep -E '^Block (count|size)'")
    m = re.search(r"^part (\d+) (\d+) (\d+)", out, re.M)
    blocks = re.search(r"Block count:\s*(\d+)", out)
    bsize = re.search(r"Block size:\s*(\d+)", out)
    grown = False
    detail = " | ".join(l for l in out.strip().splitlines() if l.strip())
    if m and blocks and bsize:
        start, size, disk = map(int, m.groups())
        fs = int(blocks.group(1)) * int(bsize.group(1))
        grown = (disk - (start + size) <= 8192 and disk * 512 == padded
                 and size * 512 - fs < 4 * 1048576 and "Result=success" in out)
        detail = (f"partition 2 at {start} + {size} of {disk} sectors, file system {fs} bytes; "
                  + detail)
    check("chesspi-grow-root.service ran: partition 2 and its file system fill the card", grown,
          detail)

    # chesspi.service.
    time.sleep(5)
    status, out = con.sh(
        "systemctl show -p ActiveState -p SubState -p Result -p NRestarts -p ExecMainCode "
        "-p ExecMainStatus -p ExecMainStartTimestampMonotonic "
        "-p InactiveExitTimestampMonotonic chesspi.service; "
        "journalctl -b -u chesspi.service -o short-monotonic --no-pager | cut -c1-220 "
        "| grep -v -E 'Error using /dev/fb[1-9]:' | head -n 14")
    props = dict(re.findall(r"^(\w+)=(.*)$", out, re.M))
    start_us = int(props.get("InactiveExitTimestampMonotonic", "0") or 0)
    main_us = int(props.get("ExecMainStartTimestampMonotonic", "0") or 0)
    journal = [l for l in out.splitlines() if l.startswith("[")]
    first = next((l for l in journal if "Started chesspi.service" in l
                  or "Starting chesspi.service" in l), "")
    first_at = re.match(r"\[\s*([\d.]+)\]", first)
    if first_at:
        timings["chesspi.service first started (guest monotonic s)"] = round(
            float(first_at.group(1)), 1)
    check("chesspi.service is started by systemd", start_us > 0 or main_us > 0,
          f"ActiveState={props.get('ActiveState')} SubState={props.get('SubState')} "
          f"Result={props.get('Result')} NRestarts={props.get('NRestarts')}, first started at "
          f"{float(first_at.group(1)) if first_at else 0:.1f} s of the guest's boot")
    log("chesspi.service's journal, its first start (/dev/fb1..9 lines left out):")
    for l in journal:
        print("    " + l, flush=True)

    status, out = con.sh("systemctl --failed --no-legend --plain | cut -c1-160; "
                         "echo jobs: $(systemctl list-jobs --no-legend | wc -l); "
                         "systemctl list-jobs --no-legend | cut -c1-120; "
                         "echo dri: $(ls /dev/dri 2>/dev/null) fb: $(ls /dev/fb* 2>/dev/null); "
                         "echo net: $(ls /sys/class/net); "
                         "echo usb: $(ls /sys/bus/usb/devices 2>/dev/null); "
                         "dmesg | grep -E 'sdhost|mmc0:|mmcblk0:|vc4|drm' | cut -c1-160 | head -n 12")
    log("state after the boot:")
    for l in out.strip().splitlines():
        print("    " + l, flush=True)
    jobs = re.search(r"^jobs: (\d+)", out, re.M)
    check("nothing left waiting after the boot (no job for the network, USB or a device)",
          jobs and jobs.group(1) == "0", jobs.group(0) if jobs else out[-300:])
    timings.update({k: v[0] for k, v in con.seen.items()})


def summary(started):
    passed = sum(1 for _, ok, _ in results if ok)
    log(f"timings (s after QEMU started; the guest's clock is the host's): {timings}")
    log(f"{passed} of {len(results)} checks passed in {time.time() - started:.0f} s; "
        f"logs in {os.path.relpath(WORK, ROOT)}/")
    for name, ok, _ in results:
        if not ok:
            log(f"FAILED: {name}")
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
