//! The players of one device and each one's own files: `<state>/players.toml` names them,
//! `<state>/players/<id>/` holds a player's record and rating (`stats.toml`), Train
//! puzzles (`puzzles.toml`), opening cards (`openings.toml`) and endgame lessons
//! (`endgames.toml`). Saved games stay shared: each names its players.
//!
//! Versions before players kept one record in `<state>/stats.toml` and `<state>/puzzles.toml`;
//! on the first start without a players file they move, unchanged, into player 1's folder
//! ("Player 1", the default roster's one player), so every number is kept. Each move is a
//! rename, so a power cut leaves a file in one place or the other, and the next start
//! finishes the move.

pub mod name;
pub mod roster;

use std::io;
use std::path::{Path, PathBuf};

pub use super::seats::{Seat, Seats, Sides, player_tag};
pub use name::{MAX_NAME_CHARS, NameError, PlayerName};
pub use roster::{MAX_PLAYERS, Player, PlayerId, Roster, RosterError, RosterStore, Who};

use super::atomic::sync_dir;
use super::endgames::{EndgameProgress, EndgamesStore};
use super::openings::{OpeningCards, OpeningStore};
use super::puzzles::{PUZZLES_FILE, PuzzleBook, PuzzleStore};
use super::stats::{STATS_FILE, Stats, StatsStore};
use super::store::Load;

/// The folder of the players' own files, in the state directory.
pub const PLAYERS_DIR: &str = "players";

/// Where the players' files live.
#[derive(Debug, Clone)]
pub struct PlayerFiles {
    state_dir: PathBuf,
}

impl PlayerFiles {
    pub fn new(state_dir: &Path) -> PlayerFiles {
        PlayerFiles {
            state_dir: state_dir.to_path_buf(),
        }
    }

    /// Player `id`'s folder.
    pub fn dir(&self, id: PlayerId) -> PathBuf {
        self.state_dir.join(PLAYERS_DIR).join(id.to_string())
    }

    /// The players file.
    pub fn roster_store(&self) -> RosterStore {
        RosterStore::new(&self.state_dir)
    }

    /// Reads the players (moving a one-player record into player 1's folder first, the first
    /// time). A damaged players file is set aside and the default roster used; ids of folders
    /// left from it are never given again.
    ///
    /// # Errors
    /// Moving the old files failed (they then stay where they were and are read from there
    /// next time; the roster is still returned in the error's stead by the caller's default).
    pub fn open(&self) -> (Load<Roster>, io::Result<()>) {
        let store = self.roster_store();
        let moved = if store.path().exists() {
            Ok(())
        } else {
            self.move_single_player_files()
        };
        let mut load = store.load();
        if let Some(highest) = self.highest_folder_id() {
            load.value.skip_ids_through(highest);
        }
        (load, moved)
    }

    /// Player `id`'s record and rating (a damaged file set aside: see [`Load`]).
    pub fn load_stats(&self, id: PlayerId) -> Load<Stats> {
        StatsStore::new(&self.dir(id)).load()
    }

    /// Player `id`'s puzzles.
    pub fn load_puzzles(&self, id: PlayerId) -> Load<PuzzleBook> {
        PuzzleStore::new(&self.dir(id)).load()
    }

    /// Player `id`'s opening cards.
    pub fn load_openings(&self, id: PlayerId) -> Load<OpeningCards> {
        OpeningStore::new(&self.dir(id)).load()
    }

    /// Writes player `id`'s opening cards atomically.
    ///
    /// # Errors
    /// Any I/O error; the previous file is then unchanged.
    pub fn save_openings(&self, id: PlayerId, cards: &OpeningCards) -> io::Result<()> {
        self.ensure_dir(id)?;
        OpeningStore::new(&self.dir(id)).save(cards)
    }

    /// Player `id`'s progress in the endgame lessons.
    pub fn load_endgames(&self, id: PlayerId) -> Load<EndgameProgress> {
        EndgamesStore::new(&self.dir(id)).load()
    }

    /// Writes player `id`'s progress in the endgame lessons atomically.
    ///
    /// # Errors
    /// Any I/O error; the previous file is then unchanged.
    pub fn save_endgames(&self, id: PlayerId, progress: &EndgameProgress) -> io::Result<()> {
        self.ensure_dir(id)?;
        EndgamesStore::new(&self.dir(id)).save(progress)
    }

    /// Writes player `id`'s record and rating atomically.
    ///
    /// # Errors
    /// Any I/O error; the previous file is then unchanged.
    pub fn save_stats(&self, id: PlayerId, stats: &Stats) -> io::Result<()> {
        self.ensure_dir(id)?;
        StatsStore::new(&self.dir(id)).save(stats)
    }

    /// Writes player `id`'s puzzles atomically.
    ///
    /// # Errors
    /// Any I/O error; the previous file is then unchanged.
    pub fn save_puzzles(&self, id: PlayerId, puzzles: &PuzzleBook) -> io::Result<()> {
        self.ensure_dir(id)?;
        PuzzleStore::new(&self.dir(id)).save(puzzles)
    }

    /// Deletes a removed player's record, puzzles and opening cards (their saved games stay).
    ///
    /// # Errors
    /// Any I/O error but the folder's absence.
    pub fn remove(&self, id: PlayerId) -> io::Result<()> {
        match std::fs::remove_dir_all(self.dir(id)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => sync_dir(&self.state_dir.join(PLAYERS_DIR)),
        }
    }

    fn ensure_dir(&self, id: PlayerId) -> io::Result<()> {
        let dir = self.dir(id);
        if dir.is_dir() {
            return Ok(());
        }
        std::fs::create_dir_all(&dir)?;
        sync_dir(&self.state_dir.join(PLAYERS_DIR))?;
        sync_dir(&self.state_dir)
    }

    /// The one-player files into player 1's folder, each unless already there.
    fn move_single_player_files(&self) -> io::Result<()> {
        let first = self.dir(PlayerId::FIRST);
        let mut moved = false;
        for file in [STATS_FILE, PUZZLES_FILE] {
            let old = self.state_dir.join(file);
            let new = first.join(file);
            if old.is_file() && !new.exists() {
                self.ensure_dir(PlayerId::FIRST)?;
                std::fs::rename(&old, &new)?;
                log::info!("moved {} to {}", old.display(), new.display());
                moved = true;
            }
        }
        if moved {
            sync_dir(&first)?;
            sync_dir(&self.state_dir)?;
        }
        Ok(())
    }

    /// The highest id among the players' folders.
    fn highest_folder_id(&self) -> Option<u32> {
        std::fs::read_dir(self.state_dir.join(PLAYERS_DIR))
            .ok()?
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::stats::PlayerResult;
    use chesspi_engine::level::Level;

    #[test]
    fn the_one_player_files_become_player_ones_with_every_number_kept() {
        let dir = tempfile::tempdir().expect("dir");
        let mut stats = Stats::new();
        stats.record(Level::new(3).expect("level"), PlayerResult::Win);
        stats.record(Level::new(5).expect("level"), PlayerResult::Loss);
        StatsStore::new(dir.path()).save(&stats).expect("old stats");
        let puzzles_text = "not read here: moved as it is";
        std::fs::write(dir.path().join(PUZZLES_FILE), puzzles_text).expect("old puzzles");

        let files = PlayerFiles::new(dir.path());
        let (roster, moved) = files.open();
        moved.expect("moved");
        assert!(roster.recovered.is_none());
        assert_eq!(roster.value, Roster::default());
        assert!(!dir.path().join(STATS_FILE).exists());
        let kept = files.load_stats(PlayerId::FIRST);
        assert!(kept.recovered.is_none());
        assert_eq!(kept.value, stats, "every number kept");
        assert_eq!(
            std::fs::read_to_string(files.dir(PlayerId::FIRST).join(PUZZLES_FILE)).expect("moved"),
            puzzles_text
        );
    }

    /// A power cut between the two moves: the next start moves the other.
    #[test]
    fn a_move_cut_short_is_finished_at_the_next_start() {
        let dir = tempfile::tempdir().expect("dir");
        let files = PlayerFiles::new(dir.path());
        files
            .save_stats(PlayerId::FIRST, &Stats::new())
            .expect("moved before the cut");
        std::fs::write(dir.path().join(PUZZLES_FILE), "x").expect("left behind");
        files.open().1.expect("moved");
        assert!(files.dir(PlayerId::FIRST).join(PUZZLES_FILE).exists());
        assert!(!dir.path().join(PUZZLES_FILE).exists());
    }

    #[test]
    fn players_keep_apart_and_a_removed_players_id_is_not_given_again() {
        let dir = tempfile::tempdir().expect("dir");
        let files = PlayerFiles::new(dir.path());
        let (load, _) = files.open();
        let mut roster = load.value;
        let anna = roster.add("Anna").expect("added");
        let mut hers = Stats::new();
        hers.record(Level::new(9).expect("level"), PlayerResult::Win);
        files.save_stats(anna, &hers).expect("saved");
        assert_eq!(files.load_stats(anna).value, hers);
        assert_eq!(files.load_stats(PlayerId::FIRST).value, Stats::new());

        // The players file is lost (say, damaged and set aside): Anna's folder keeps her id.
        let (again, _) = files.open();
        assert_eq!(again.value.next_id().get(), anna.get() + 1);

        files.remove(anna).expect("removed");
        assert!(!files.dir(anna).exists());
        files.remove(anna).expect("removing twice is no error");
    }
}
