//! What the saver says back to the app: its reports and its errors.

// The parent's imports: these types are the saver's own, split out for length.
use super::*;

/// Why a save or a saved-games job failed. The screen says it in the user's language (see
/// `shell::effects`); `Display` is for the log.
#[derive(Debug)]
pub enum SavingError {
    /// There is no place for saved games (no state directory).
    NoArchive,
    /// No saved game has this id.
    NoSuchGame(String),
    /// The game asked for is the one on the board.
    OnTheBoard,
    /// No USB stick is plugged in.
    NoUsbStick,
    /// Another import is under way.
    Busy,
    /// The game on the board could not be written.
    Autosave(std::io::Error),
    Archive(ArchiveError),
    /// A saved game's moves do not replay.
    Replay(GameError),
    Export(ExportError),
    Settings(SettingsError),
    /// The puzzles could not be written.
    Puzzles(std::io::Error),
    /// The players file or a player's folder could not be written.
    Players(std::io::Error),
    /// The opening cards could not be written.
    Openings(std::io::Error),
    /// The endgame lessons' progress could not be written.
    Endgames(std::io::Error),
}

impl fmt::Display for SavingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SavingError::NoArchive => write!(f, "saved games are not available"),
            SavingError::NoSuchGame(id) => write!(f, "there is no saved game {id}"),
            SavingError::OnTheBoard => write!(f, "the game is the one on the board"),
            SavingError::NoUsbStick => write!(f, "no USB stick found"),
            SavingError::Busy => write!(f, "another file is being imported"),
            SavingError::Autosave(e) => write!(f, "cannot save the game: {e}"),
            SavingError::Archive(e) => e.fmt(f),
            SavingError::Replay(e) => e.fmt(f),
            SavingError::Export(e) => e.fmt(f),
            SavingError::Settings(e) => e.fmt(f),
            SavingError::Puzzles(e) => write!(f, "cannot save the puzzles: {e}"),
            SavingError::Players(e) => write!(f, "cannot save the players: {e}"),
            SavingError::Openings(e) => write!(f, "cannot save the opening cards: {e}"),
            SavingError::Endgames(e) => write!(f, "cannot save the endgame lessons: {e}"),
        }
    }
}

impl std::error::Error for SavingError {}

/// The saver's report for one save.
#[derive(Debug)]
pub struct SaveReport {
    /// The save's number, as [`Saver::submit`] returned it.
    pub seq: u64,
    /// Why the autosave failed, if it did (the move is then shown anyway: refusing to play on
    /// would be worse, and the user is told).
    pub error: Option<SavingError>,
    /// The players' rating changes when this save finished a rated game.
    pub rating: Vec<RatingNews>,
    /// The current player's record after that game.
    pub stats: Option<StatsSummary>,
    /// The stored analysis of the finished game saved (found after a restart): the moves
    /// it belongs to, and the analysis.
    pub stored_marks: Option<(
        Vec<chesspi_engine::Move>,
        Box<crate::app::session::marks::AnalysisMarks>,
    )>,
}

/// A player's rating before and after a game, with their name then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingNews {
    pub name: String,
    pub change: RatingChange,
}

/// The player now at the device: their record and puzzles, and what of them could not be
/// read (in the user's words).
#[derive(Debug, Clone)]
pub struct PlayerNews {
    pub who: Who,
    pub stats: StatsSummary,
    pub puzzles: PuzzleBook,
    pub openings: OpeningCards,
    /// Their progress in the endgame lessons.
    pub endgames: EndgameProgress,
    pub refused: Vec<String>,
}

/// A saved game read back for the screen.
#[derive(Debug)]
pub enum Opened {
    /// To step through: the replayed game and its header.
    Review {
        game: Box<Game>,
        header: GameHeader,
        /// Its stored analysis, if it has one.
        marks: Option<Box<crate::app::session::marks::AnalysisMarks>>,
    },
    /// To play on.
    Resume(Box<SavedGame>),
}

/// What the storage thread reports, besides saves.
#[derive(Debug)]
pub enum Report {
    /// A save finished.
    Saved(SaveReport),
    /// The saved games, newest first, the USB sticks an export could go to, and the PGN
    /// files on the sticks.
    Games {
        games: Result<Vec<GameSummary>, SavingError>,
        usb: Vec<PathBuf>,
        pgn_files: Vec<UsbFile>,
    },
    /// How far the import under way has come.
    ImportProgress(crate::storage::archive::ImportProgress),
    /// A PGN file was imported (or why not).
    Imported {
        file: PathBuf,
        result: Result<crate::storage::archive::ImportReport, SavingError>,
    },
    /// A saved game was read.
    Opened(Result<Opened, SavingError>),
    /// A saved game was deleted (or why not).
    Deleted(Result<(), SavingError>),
    /// The export's outcome.
    Exported(Result<ExportReport, SavingError>),
    /// An analysis was written into a saved game (or why not).
    Annotated(Result<(), SavingError>),
    /// Device settings were stored (or why not).
    SettingsSaved(Result<(), SavingError>),
    /// The player's puzzles changed (new ones from an analysis, a try): all of them, and
    /// whether they reached the disk.
    Puzzles(Box<PuzzleBook>, Result<(), SavingError>),
    /// Another player is at the device ([`Saver::choose`]).
    Player(Box<PlayerNews>),
    /// The players file was written (or why not).
    PlayersSaved(Result<(), SavingError>),
    /// A saved game to analyse in the background: its game id, start position and moves;
    /// `None` when every one is analysed.
    Unanalysed(Option<Box<UnanalysedGame>>),
    /// The player's opening cards changed (a line tried): all of them, and whether they
    /// reached the disk.
    Openings(Box<OpeningCards>, Result<(), SavingError>),
    /// The player's progress in the endgame lessons after a try: all of it, and whether it
    /// reached the disk.
    Endgames(Box<EndgameProgress>, Result<(), SavingError>),
}

/// A saved game without an analysis ([`Report::Unanalysed`]).
#[derive(Debug, Clone)]
pub struct UnanalysedGame {
    pub game_id: u64,
    pub start: chesspi_engine::Position,
    pub moves: Vec<chesspi_engine::Move>,
}
