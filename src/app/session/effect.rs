//! What the shell is asked to do: search, save, sound, the network, the workers. Screens and
//! the game session push these; only the shell carries them out.

use super::partner::{LanRequest, NetworkEffect};
use super::thinking::ThinkRequest;
use crate::app::model::settings::Setting;
use chesspi_engine::level::Level;
use chesspi_engine::{Move, Position};

/// Something the app shell must do for the game or a screen: the outbox of
/// [`GameSession`](super::game::GameSession), emptied by the shell after each change.
#[derive(Debug, Clone)]
pub enum Effect {
    /// A sound that no change of state shows: a tap the board could not take as a move.
    /// (Moves, results and the rest are heard from the state itself, see the shell.)
    Sound(crate::sound::Cue),
    /// Search on the worker thread; the answer comes back through
    /// `Controller::computer_answered` with the same id.
    Think(ThinkRequest),
    /// Stop the search in progress; its answer, if any still arrives, is stale.
    CancelThinking,
    /// The game changed (a move, a takeback, a new game, a result), or how it is shown (the
    /// board turned). The place to save it.
    GameChanged,
    /// The user asked for the player's record.
    ShowStatistics,
    /// The user asked for the list of saved games.
    ShowGames,
    /// Open a saved game: for review, or to play on.
    OpenSaved { id: String, resume: bool },
    /// Delete a saved game (confirmed).
    DeleteSaved { id: String },
    /// The user stepped a device setting to its next value.
    ChangeSetting(Setting),
    /// A game against the computer was started at this level (`fits`: the level that fits
    /// the player, chosen as such): the next one starts there too.
    LevelChosen { level: Level, fits: bool },
    /// The user confirmed shutting the device down (the game is already saved).
    Shutdown,
    /// Send this to the network partner.
    Lan(LanRequest),
    /// End the computer's search now and play its best move so far.
    MoveNow,
    /// Host, browse, join or stop (finding a partner).
    Network(NetworkEffect),
    /// Analyse this game on the analysis worker; reports come back through
    /// `Analysis::report` (`screens/analysis/`) with the same id.
    Analyse {
        id: u64,
        start: Position,
        moves: Vec<Move>,
    },
    /// Stop the analysis in progress at once.
    CancelAnalysis,
    /// Import the PGN file `index` of the USB sticks' list (Saved games → From USB stick).
    ImportPgn { index: usize },
    /// Stop the import under way after the game it is storing.
    CancelImport,
    /// A puzzle was tried: the saver records it (and keeps the schedule on disk).
    PuzzleTried { id: String, solved: bool, now: u64 },
    /// Keep a finished analysis with the game: the saved game `saved` (archive id), or the
    /// game on the board when `None`.
    StoreAnalysis {
        saved: Option<String>,
        analysis: Box<chesspi_engine::analysis::GameAnalysis>,
    },
    /// Ask the Wi-Fi thread; its reports come back through `Controller::wifi_report`.
    Wifi(crate::wifi::worker::WifiRequest),
    /// `who` (called `name`) is at the device now: the saver reads their record and puzzles
    /// and writes `roster`, which remembers them as the last to play.
    ChoosePlayer {
        who: crate::storage::Who,
        roster: Box<crate::storage::players::Roster>,
        name: String,
    },
    /// The players changed: the saver writes `roster`; `removed`'s record and puzzles are
    /// deleted.
    KeepPlayers {
        roster: Box<crate::storage::players::Roster>,
        removed: Option<crate::storage::players::PlayerId>,
    },
    /// An opening line was tried: the saver records the card's try (and keeps the schedule
    /// on disk).
    OpeningTried {
        line: chesspi_engine::openings::lines::LineId,
        passed: bool,
        now: u64,
    },
    /// A try at endgame lesson `id` ended after the player's `moves`: the saver records it.
    EndgameTried {
        id: String,
        passed: bool,
        moves: u32,
    },
}
