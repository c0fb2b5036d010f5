//! Rendering without a display: a Slint platform whose window is a software-rendered pixel
//! buffer. Used by `--screenshot` and by the UI tests, which also send it pointer events and
//! pump its event queue by hand.
//!
//! Slint allows one platform per process, and its state lives on the thread that installed
//! it: install once, then use this module from that same thread only.

use slint::platform::software_renderer::{MinimalSoftwareWindow, RepaintBufferType};
use slint::platform::{EventLoopProxy, Platform, PointerEventButton, WindowAdapter, WindowEvent};
use slint::{EventLoopError, LogicalPosition, PhysicalSize, PlatformError, Rgb8Pixel};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::path::Path;
use std::rc::Rc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The screen of the device.
pub const WIDTH: u32 = 800;
pub const HEIGHT: u32 = 480;

type Job = Box<dyn FnOnce() + Send>;

/// Closures sent from other threads with `slint::invoke_from_event_loop`.
#[derive(Default)]
struct Queue {
    jobs: Mutex<VecDeque<Job>>,
    ready: Condvar,
}

struct Proxy(Arc<Queue>);

impl EventLoopProxy for Proxy {
    fn quit_event_loop(&self) -> Result<(), EventLoopError> {
        Ok(())
    }

    fn invoke_from_event_loop(&self, event: Job) -> Result<(), EventLoopError> {
        let mut jobs = self
            .0
            .jobs
            .lock()
            .map_err(|_| EventLoopError::EventLoopTerminated)?;
        jobs.push_back(event);
        self.0.ready.notify_all();
        Ok(())
    }
}

struct HeadlessPlatform {
    queue: Arc<Queue>,
}

impl Platform for HeadlessPlatform {
    fn create_window_adapter(&self) -> Result<Rc<dyn WindowAdapter>, PlatformError> {
        let window = MinimalSoftwareWindow::new(RepaintBufferType::NewBuffer);
        window.set_size(PhysicalSize::new(WIDTH, HEIGHT));
        WINDOW.with(|w| *w.borrow_mut() = Some(window.clone()));
        Ok(window)
    }

    fn new_event_loop_proxy(&self) -> Option<Box<dyn EventLoopProxy>> {
        Some(Box::new(Proxy(self.queue.clone())))
    }
}

thread_local! {
    /// The most recently created window and the queue of this thread's platform.
    static WINDOW: RefCell<Option<Rc<MinimalSoftwareWindow>>> = const { RefCell::new(None) };
    static QUEUE: RefCell<Option<Arc<Queue>>> = const { RefCell::new(None) };
}

/// Why headless rendering failed.
#[derive(Debug)]
pub enum HeadlessError {
    /// Another Slint platform is already installed in this process (or on another thread).
    PlatformTaken,
    /// No window has been created yet.
    NoWindow,
    Png(png::EncodingError),
    Io(std::io::Error),
}

impl fmt::Display for HeadlessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeadlessError::PlatformTaken => {
                f.write_str("another Slint platform is already in use in this process")
            }
            HeadlessError::NoWindow => f.write_str("no window to render"),
            HeadlessError::Png(e) => write!(f, "cannot encode the PNG: {e}"),
            HeadlessError::Io(e) => write!(f, "cannot write the PNG: {e}"),
        }
    }
}

impl std::error::Error for HeadlessError {}

/// Installs the headless platform on this thread. Calling it again on the same thread is
/// harmless.
///
/// # Errors
/// [`HeadlessError::PlatformTaken`] when another platform is installed.
pub fn install() -> Result<(), HeadlessError> {
    if QUEUE.with(|q| q.borrow().is_some()) {
        return Ok(());
    }
    let queue = Arc::new(Queue::default());
    slint::platform::set_platform(Box::new(HeadlessPlatform {
        queue: queue.clone(),
    }))
    .map_err(|_| HeadlessError::PlatformTaken)?;
    QUEUE.with(|q| *q.borrow_mut() = Some(queue));
    Ok(())
}

fn window() -> Result<Rc<MinimalSoftwareWindow>, HeadlessError> {
    WINDOW
        .with(|w| w.borrow().clone())
        .ok_or(HeadlessError::NoWindow)
}

/// Runs what other threads sent to the event loop, and due timers. Returns how many queued
/// closures ran.
pub fn pump() -> usize {
    let queue = QUEUE.with(|q| q.borrow().clone());
    let mut ran = 0;
    if let Some(queue) = queue {
        loop {
            let job = match queue.jobs.lock() {
                Ok(mut jobs) => jobs.pop_front(),
                Err(_) => None,
            };
            let Some(job) = job else { break };
            job();
            ran += 1;
        }
    }
    slint::platform::update_timers_and_animations();
    ran
}

/// Pumps the event loop until `done` holds or `timeout` passes; returns whether it held.
pub fn pump_until(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        pump();
        if done() {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        // Sleep until a closure arrives, the next timer is due, or the deadline.
        let mut wait = deadline - now;
        if let Some(timer) = slint::platform::duration_until_next_timer_update() {
            wait = wait.min(timer);
        }
        wait = wait.min(Duration::from_millis(50));
        if let Some(queue) = QUEUE.with(|q| q.borrow().clone())
            && let Ok(jobs) = queue.jobs.lock()
            && jobs.is_empty()
        {
            let _ = queue.ready.wait_timeout(jobs, wait);
        }
    }
}

/// Sends a pointer press, moves and release to the window, as a finger would.
pub fn press_at(x: f32, y: f32) -> Result<(), HeadlessError> {
    let w = window()?;
    let position = LogicalPosition::new(x, y);
    w.dispatch_event(WindowEvent::PointerMoved { position });
    w.dispatch_event(WindowEvent::PointerPressed {
        position,
        button: PointerEventButton::Left,
    });
    Ok(())
}

/// Moves the pointer (with the button held if it was pressed).
pub fn move_to(x: f32, y: f32) -> Result<(), HeadlessError> {
    window()?.dispatch_event(WindowEvent::PointerMoved {
        position: LogicalPosition::new(x, y),
    });
    Ok(())
}

/// Releases the pointer at a point.
pub fn release_at(x: f32, y: f32) -> Result<(), HeadlessError> {
    let w = window()?;
    let position = LogicalPosition::new(x, y);
    w.dispatch_event(WindowEvent::PointerMoved { position });
    w.dispatch_event(WindowEvent::PointerReleased {
        position,
        button: PointerEventButton::Left,
    });
    Ok(())
}

/// A tap: press and release at the same point.
pub fn tap(x: f32, y: f32) -> Result<(), HeadlessError> {
    press_at(x, y)?;
    release_at(x, y)?;
    pump();
    Ok(())
}

/// A drag from one point to another in a few steps.
pub fn drag(from: (f32, f32), to: (f32, f32)) -> Result<(), HeadlessError> {
    press_at(from.0, from.1)?;
    const STEPS: u16 = 5;
    for i in 1..=STEPS {
        let t = f32::from(i) / f32::from(STEPS);
        move_to(from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t)?;
    }
    release_at(to.0, to.1)?;
    pump();
    Ok(())
}

/// A rendered screen: 800x480 RGB pixels, row by row.
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<Rgb8Pixel>,
}

impl Frame {
    /// The pixel at (x, y) as (r, g, b).
    pub fn rgb(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let p = self.pixels[(y * self.width + x) as usize];
        (p.r, p.g, p.b)
    }

    /// Writes the frame as a PNG file.
    ///
    /// # Errors
    /// [`HeadlessError::Io`] or [`HeadlessError::Png`].
    pub fn save_png(&self, path: &Path) -> Result<(), HeadlessError> {
        let file = std::fs::File::create(path).map_err(HeadlessError::Io)?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(HeadlessError::Png)?;
        let bytes: Vec<u8> = self.pixels.iter().flat_map(|p| [p.r, p.g, p.b]).collect();
        writer
            .write_image_data(&bytes)
            .map_err(HeadlessError::Png)?;
        writer.finish().map_err(HeadlessError::Png)
    }
}

/// Renders the whole window now, and how long the software renderer took.
///
/// # Errors
/// [`HeadlessError::NoWindow`] before a window exists.
pub fn render() -> Result<(Frame, Duration), HeadlessError> {
    let w = window()?;
    pump();
    w.request_redraw();
    let mut pixels = vec![Rgb8Pixel::new(0, 0, 0); (WIDTH * HEIGHT) as usize];
    let started = Instant::now();
    w.draw_if_needed(|renderer| {
        renderer.render(&mut pixels, WIDTH as usize);
    });
    let took = started.elapsed();
    Ok((
        Frame {
            width: WIDTH,
            height: HEIGHT,
            pixels,
        },
        took,
    ))
}
