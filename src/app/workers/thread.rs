//! A thread that stops when its owner is dropped: the one `Drop` the app's workers share.

use std::io;
use std::thread::JoinHandle;

/// What dropping a [`Thread`] waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDrop {
    /// Tell the thread to stop and go on: it ends by itself within a search's poll (the UI
    /// thread never waits on a search).
    Leave,
    /// Tell the thread to stop and wait for it to end (its work is short once told).
    Join,
}

/// A named thread with the way to tell it to stop: told when this is dropped.
pub struct Thread {
    handle: Option<JoinHandle<()>>,
    stop: Option<Box<dyn FnOnce() + Send>>,
    on_drop: OnDrop,
}

impl Thread {
    /// Starts `body` on a thread called `name`; `stop` tells it to end (sets its flag, wakes
    /// it) and runs when this is dropped.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn(
        name: &str,
        on_drop: OnDrop,
        stop: impl FnOnce() + Send + 'static,
        body: impl FnOnce() + Send + 'static,
    ) -> io::Result<Thread> {
        let handle = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(body)?;
        Ok(Thread {
            handle: Some(handle),
            stop: Some(Box::new(stop)),
            on_drop,
        })
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }
}

impl Drop for Thread {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            stop();
        }
        if let (OnDrop::Join, Some(handle)) = (self.on_drop, self.handle.take())
            && handle.join().is_err()
        {
            log::error!("a worker thread panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn dropping_it_tells_the_thread_to_stop_and_joins_when_asked() {
        let quit = Arc::new(AtomicBool::new(false));
        let ended = Arc::new(AtomicBool::new(false));
        let (q, e) = (quit.clone(), ended.clone());
        let thread = Thread::spawn(
            "test",
            OnDrop::Join,
            move || quit.store(true, Ordering::Relaxed),
            move || {
                while !q.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                e.store(true, Ordering::Relaxed);
            },
        )
        .unwrap();
        assert!(!thread.is_finished());
        drop(thread);
        assert!(
            ended.load(Ordering::Relaxed),
            "the drop waited for the thread's end"
        );
    }

    #[test]
    fn leaving_it_tells_the_thread_to_stop_without_waiting() {
        let quit = Arc::new(AtomicBool::new(false));
        let q = quit.clone();
        let (go_tx, go) = std::sync::mpsc::channel::<()>();
        let (done_tx, done) = std::sync::mpsc::channel();
        let thread = Thread::spawn(
            "test",
            OnDrop::Leave,
            move || q.store(true, Ordering::Relaxed),
            move || {
                // Only a drop that returned at once lets the test send this in time.
                let went = go.recv_timeout(Duration::from_secs(10)).is_ok();
                let _ = done_tx.send(went);
            },
        )
        .unwrap();
        drop(thread);
        assert!(quit.load(Ordering::Relaxed));
        let _ = go_tx.send(());
        assert_eq!(done.recv_timeout(Duration::from_secs(20)), Ok(true));
    }
}
