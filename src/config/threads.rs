//! The threads of the searches the player waits for, resolved once at start.

use chesspi_engine::search::Threads;
use std::sync::OnceLock;

/// Threads of the searches the player waits for (the coach, threats, Hint, level 10, game
/// analysis, the analysis board), set once at start from `[engine] threads`: one value for
/// the whole process, read by the workers and the analysis screen's link, which may not
/// reach each other.
static SEARCH_THREADS: OnceLock<Threads> = OnceLock::new();

/// Sets the threads of the searches the player waits for; the first call wins (start-up's).
pub fn set_search_threads(threads: Threads) {
    if SEARCH_THREADS.set(threads).is_err() {
        log::warn!("search threads already set; {threads} ignored");
    }
}

/// The threads of the searches the player waits for: one (deterministic) until start-up
/// sets them, as in tests. Searches of their own budget use them each
/// ([`chesspi_engine::search::SearchLimits::on_threads`]): more cores, a deeper answer in
/// about the same time. Levels 1–9 and the idle device's background analysis stay on one.
pub fn search_threads() -> Threads {
    SEARCH_THREADS.get().copied().unwrap_or(Threads::ONE)
}
