//! The notice queue on screen: [`Notices`] shown in the status bar, with a timer that runs
//! only while something will change by itself (news expiring, the countdown counting), so an
//! idle screen stays idle. Threads (battery, shutdown) reach it through a [`NoticeSender`].

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

use slint::ComponentHandle;

use crate::app::notices::{Notices, Priority, Topic};
use crate::app::ui::{AppWindow, StatusAdapter};
use crate::battery::BatteryEvent;

/// A change to the notices, sent from any thread.
#[derive(Debug, Clone)]
pub enum NoticeMsg {
    Battery(BatteryEvent),
    Raise(Topic, String),
    Clear(Topic),
    Inform(String),
}

/// The notices and the status bar they are shown in. Lives on the UI thread.
pub struct BarState {
    notices: Notices,
    window: slint::Weak<AppWindow>,
    timer: slint::Timer,
    inbox: Receiver<NoticeMsg>,
    outbox: Sender<NoticeMsg>,
}

/// The board, shared by the parts of the app on the UI thread.
#[derive(Clone)]
pub struct NoticeBar(Rc<RefCell<BarState>>);

impl NoticeBar {
    /// A board showing its notices in `window`, wired to its dismiss and wake-up callbacks.
    pub fn attach(window: &AppWindow) -> NoticeBar {
        let (outbox, inbox) = mpsc::channel();
        let board = NoticeBar(Rc::new(RefCell::new(BarState {
            notices: Notices::new(),
            window: window.as_weak(),
            timer: slint::Timer::default(),
            inbox,
            outbox,
        })));
        let status = window.global::<StatusAdapter>();
        let weak = Rc::downgrade(&board.0);
        status.on_notice_dismissed(move || {
            if let Some(b) = weak.upgrade() {
                NoticeBar(b).change(|n, now| n.dismiss(now));
            }
        });
        let weak = Rc::downgrade(&board.0);
        status.on_notices_pending(move || {
            if let Some(b) = weak.upgrade() {
                NoticeBar(b).receive();
            }
        });
        board
    }

    /// A handle for other threads.
    pub fn sender(&self) -> NoticeSender {
        let b = self.0.borrow();
        NoticeSender {
            tx: b.outbox.clone(),
            window: b.window.clone(),
        }
    }

    /// Changes the notices and shows the result.
    pub fn change(&self, f: impl FnOnce(&mut Notices, Instant)) {
        let now = Instant::now();
        f(&mut self.0.borrow_mut().notices, now);
        show(&self.0, now);
    }

    pub fn raise(&self, topic: Topic, text: impl Into<String>) {
        let text = text.into();
        self.change(|n, _| n.raise(topic, text));
    }

    pub fn clear(&self, topic: Topic) {
        self.change(|n, _| n.clear(topic));
    }

    pub fn inform(&self, text: impl Into<String>) {
        let text = text.into();
        self.change(|n, now| n.inform(text, now));
    }

    /// Takes the messages other threads sent.
    fn receive(&self) {
        let msgs: Vec<NoticeMsg> = self.0.borrow().inbox.try_iter().collect();
        if msgs.is_empty() {
            return;
        }
        self.change(|n, now| {
            for msg in msgs {
                apply(n, msg, now);
            }
        });
    }
}

fn apply(n: &mut Notices, msg: NoticeMsg, now: Instant) {
    match msg {
        NoticeMsg::Battery(event) => n.battery(&event, now),
        NoticeMsg::Raise(topic, text) => n.raise(topic, text),
        NoticeMsg::Clear(topic) => n.clear(topic),
        NoticeMsg::Inform(text) => n.inform(text, now),
    }
}

/// Puts the shown notice on screen and times its next change.
fn show(board: &Rc<RefCell<BarState>>, now: Instant) {
    let b = board.borrow();
    let shown = b.notices.shown(now);
    if let Some(w) = b.window.upgrade() {
        let status = w.global::<StatusAdapter>();
        let (text, critical) = shown.map_or((String::new(), false), |s| {
            (s.text, s.priority == Priority::Critical)
        });
        if status.get_notice() != text {
            status.set_notice(text.into());
        }
        status.set_notice_critical(critical);
    }
    match b.notices.next_change(now) {
        Some(at) => {
            let weak: Weak<RefCell<BarState>> = Rc::downgrade(board);
            b.timer.start(
                slint::TimerMode::SingleShot,
                at.saturating_duration_since(now),
                move || {
                    if let Some(b) = weak.upgrade() {
                        show(&b, Instant::now());
                    }
                },
            );
        }
        None => b.timer.stop(),
    }
}

/// Sends notices to the board from any thread.
#[derive(Clone)]
pub struct NoticeSender {
    tx: Sender<NoticeMsg>,
    window: slint::Weak<AppWindow>,
}

impl NoticeSender {
    pub fn send(&self, msg: NoticeMsg) {
        self.send_with(msg, |_| {});
    }

    /// Sends `msg` and runs `first` on the UI thread in the same step, just before the notice
    /// is taken in: what `first` shows and the notice appear together, never one frame apart.
    pub fn send_with(&self, msg: NoticeMsg, first: impl FnOnce(&AppWindow) + Send + 'static) {
        if self.tx.send(msg).is_ok() {
            let _ = self.window.upgrade_in_event_loop(move |w| {
                first(&w);
                w.global::<StatusAdapter>().invoke_notices_pending();
            });
        }
    }
}
