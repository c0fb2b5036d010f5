//! The real `chesspi` binary as a process: run to its end for its output, or started in an
//! Xvfb screen of the device's size with its own state directory and config, its log lines
//! collected, its window found and clicked with xdotool, and the screen read back.
//!
//! The screen needs `Xvfb` and `xdotool` (scripts/setup installs them).

use chesspi::app::boot::screenshot::square_center;
use chesspi_engine::Square;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A config file's text that turns the battery off: a desktop has none to read.
pub const NO_BATTERY: &str = "[battery]\nsource = \"none\"\n";

/// Whether `program` can be started at all (`arg` such as "--version" makes it return).
pub fn installed(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// The `chesspi` binary this test was built with, not yet started.
pub fn chesspi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chesspi"))
}

/// `chesspi ARGS`, run to its end: its status and what it wrote.
pub fn run_chesspi(args: &[&str]) -> Output {
    chesspi().args(args).output().expect("chesspi runs")
}

/// An Xvfb screen of the device's size on a free display number, stopped on drop. Its
/// framebuffer is a file (`-fbdir`, XWD format): what the screen shows, read back.
pub struct Screen {
    xvfb: Child,
    pub display: String,
    fb: tempfile::TempDir,
    /// Xvfb's own messages, for a failure's report.
    log: tempfile::NamedTempFile,
}

impl Screen {
    pub fn start() -> Screen {
        let fb = tempfile::tempdir().expect("tempdir");
        let log = tempfile::NamedTempFile::new().expect("Xvfb log file");
        let mut xvfb = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "800x480x24",
                "-nolisten",
                "tcp",
                // Without it the server resets when its last client leaves (an xdotool
                // query before the app connects), and a connection made meanwhile fails.
                "-noreset",
                "-fbdir",
            ])
            .arg(fb.path())
            .stdout(Stdio::piped())
            .stderr(log.reopen().expect("Xvfb log file"))
            .spawn()
            .expect("Xvfb is needed for this test: run scripts/setup (apt-get install xvfb)");
        // Xvfb writes the display number it chose once it accepts connections.
        let mut line = String::new();
        BufReader::new(xvfb.stdout.take().expect("Xvfb stdout"))
            .read_line(&mut line)
            .expect("read Xvfb's display number");
        let number = line.trim();
        assert!(!number.is_empty(), "Xvfb gave no display number");
        Screen {
            xvfb,
            display: format!(":{number}"),
            fb,
            log,
        }
    }

    pub fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool is needed for this test: run scripts/setup (apt-get install xdotool)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A click on the centre of `sq` (White at the bottom) in `window`.
    pub fn click(&self, window: &str, sq: Square) {
        let (x, y) = square_center(sq, false);
        let (x, y) = ((x as i32).to_string(), (y as i32).to_string());
        self.xdotool(&["mousemove", "--window", window, &x, &y, "click", "1"]);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// The colour of the screen's pixel at (x, y), from Xvfb's XWD framebuffer file.
    pub fn pixel(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let data = std::fs::read(self.fb.path().join("Xvfb_screen0")).expect("framebuffer");
        let field =
            |i: usize| u32::from_be_bytes(data[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
        let (header, lsb_first, bits, line) = (field(0), field(7) == 0, field(11), field(12));
        let (masks, colours) = ([field(14), field(15), field(16)], field(19));
        assert_eq!(bits, 32, "a 24-bit screen keeps 32 bits a pixel");
        let at = (header + colours * 12 + y * line + x * 4) as usize;
        let bytes: [u8; 4] = data[at..at + 4].try_into().expect("a pixel");
        let value = if lsb_first {
            u32::from_le_bytes(bytes)
        } else {
            u32::from_be_bytes(bytes)
        };
        let channel = |mask: u32| ((value & mask) >> mask.trailing_zeros()) as u8;
        (channel(masks[0]), channel(masks[1]), channel(masks[2]))
    }

    /// The top-left corner of `window` on the screen.
    pub fn origin(&self, window: &str) -> (u32, u32) {
        let out = self.xdotool(&["getwindowgeometry", "--shell", window]);
        let value = |key: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.trim().parse::<u32>().ok())
                .unwrap_or(0)
        };
        (value("X="), value("Y="))
    }

    /// How dark the centre of `sq` is on the screen (0 black .. 255 white): a black piece's
    /// body is near 0, an empty square's colour is well above 100.
    pub fn darkness_at(&self, window: &str, sq: Square) -> u8 {
        let (ox, oy) = self.origin(window);
        let (x, y) = square_center(sq, false);
        // Just below the centre: the body of a pawn, not its outline.
        let (r, g, b) = self.pixel(ox + x as u32, oy + y as u32 + 8);
        ((u32::from(r) * 3 + u32::from(g) * 6 + u32::from(b)) / 10) as u8
    }

    /// Waits until the screen shows what `shown` says, or fails with what it shows.
    pub fn wait_shows(&self, what: &str, mut shown: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !shown() {
            assert!(Instant::now() < deadline, "the screen never showed {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
    }
}

/// The app process, its log lines (stdout and stderr) arriving on a channel; killed on drop.
pub struct RunningApp {
    child: Child,
    lines: Receiver<String>,
    /// The lines read so far.
    pub log: Vec<String>,
}

impl RunningApp {
    /// `chesspi --config STATE/test-config.toml ARGS` on `screen`, the config file holding
    /// `config`, with `STATE_DIRECTORY` set to `state` and without `RUST_LOG`.
    pub fn start(screen: &Screen, state: &Path, config: &str, args: &[&str]) -> RunningApp {
        let config_file = state.join("test-config.toml");
        // Silent unless the test asks for sound: ALSA's null device takes and drops it all.
        let config = if config.contains("[sound]") {
            config.to_string()
        } else {
            format!("{config}\n[sound]\ndevice = \"null\"\n")
        };
        std::fs::write(&config_file, config).expect("write config");
        let mut child = chesspi()
            .arg("--config")
            .arg(&config_file)
            .args(args)
            .env("DISPLAY", &screen.display)
            .env("STATE_DIRECTORY", state)
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chesspi");
        // The log goes to stderr (simple_logger's "stderr" feature), as do libraries' errors.
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let out_tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = out_tx.send(line);
            }
        });
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        RunningApp {
            child,
            lines,
            log: Vec::new(),
        }
    }

    /// Moves the lines that have arrived into `log`.
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.log.push(line);
        }
    }

    /// Waits for a log line containing `text`.
    pub fn wait_for_line(&mut self, text: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while !self.log.iter().any(|l| l.contains(text)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.log.push(line),
                Err(_) => panic!("no `{text}` in the log:\n{}", self.log.join("\n")),
            }
        }
    }

    /// The app's window, once it is mapped on `screen`, which may take `timeout`.
    pub fn window(&mut self, screen: &Screen, timeout: Duration) -> String {
        let pid = self.child.id().to_string();
        let deadline = Instant::now() + timeout;
        loop {
            let found = screen.xdotool(&["search", "--onlyvisible", "--pid", &pid]);
            if let Some(id) = found.lines().next() {
                return id.to_string();
            }
            // What the app said meanwhile, and whether it is still there, for the message.
            self.drain();
            if let Some(status) = self.child.try_wait().expect("wait") {
                let xvfb = std::fs::read_to_string(screen.log.path()).unwrap_or_default();
                let alive = Path::new(&format!("/proc/{}", screen.xvfb.id())).exists();
                panic!(
                    "the app ended ({status}) before its window appeared on {}:\n{}\n\
                     Xvfb running: {alive}; its log:\n{xvfb}",
                    screen.display,
                    self.log.join("\n"),
                );
            }
            assert!(
                Instant::now() < deadline,
                "no window after {timeout:?}:\n{}",
                self.log.join("\n")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends the signal `name` ("TERM", "KILL") to the app.
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args(["-s", name, &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Waits for the exit, failing after `timeout`; returns its code, the time it took and
    /// the whole log.
    pub fn wait_exit(mut self, timeout: Duration) -> (Option<i32>, Duration, String) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!(
                    "still running {timeout:?} after the signal:\n{}",
                    self.log.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let took = start.elapsed();
        // The reader threads end with the pipes; collect what they have.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(2)) {
            self.log.push(line);
        }
        (status.code(), took, self.log.join("\n"))
    }
}

impl Drop for RunningApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
