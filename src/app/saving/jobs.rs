//! What the app asks of the saver thread, and what it saves with a game.

// The parent's imports: these types are the saver's own, split out for length.
use super::*;

/// A job for the saver thread; they are done in the order sent.
pub(super) enum Job {
    Save {
        seq: u64,
        game: Box<SavedGame>,
    },
    ListGames,
    Open {
        id: String,
        resume: bool,
    },
    Delete {
        id: String,
    },
    Export,
    Annotate {
        game_id: u64,
        analysis: Box<chesspi_engine::analysis::GameAnalysis>,
    },
    Settings {
        settings: DeviceSettings,
        admin: Box<Config>,
    },
    PuzzleTried {
        id: String,
        solved: bool,
        now: u64,
    },
    /// Import the games of a PGN file into the archive.
    Import {
        file: PathBuf,
    },
    /// Stop the import under way after its current game.
    CancelImport,
    /// The newest finished game with a person playing and no analysis, not in `skip`.
    FindUnanalysed {
        skip: Vec<u64>,
    },
    Choose(Who),
    Players {
        roster: Box<Roster>,
        removed: Option<PlayerId>,
    },
    /// A try at an endgame lesson ended.
    EndgameTried {
        id: String,
        passed: bool,
        moves: u32,
    },
    Stop,
    OpeningTried {
        line: chesspi_engine::openings::lines::LineId,
        passed: bool,
        now: u64,
    },
}

/// What is saved with a game besides its moves and players.
#[derive(Debug, Clone)]
pub struct SaveExtras {
    pub flipped: bool,
    pub rated: bool,
    pub clocks: Option<crate::storage::Clocks>,
    pub coach: chesspi_engine::coach::CoachLevel,
    /// Who of this device's players plays which side.
    pub seats: crate::storage::Seats,
}

impl Default for SaveExtras {
    fn default() -> Self {
        SaveExtras {
            flipped: false,
            rated: true,
            clocks: None,
            coach: chesspi_engine::coach::CoachLevel::Off,
            seats: crate::storage::Seats::none(),
        }
    }
}
