//! The saver's part of the endgame lessons: the current player's progress read when they
//! come to the device, and each try recorded and written to their folder.

use super::super::{Report, SavingError};
use super::SaverState;
use crate::storage::endgames::EndgameProgress;
use crate::storage::players::{PlayerFiles, Who};
use crate::tr;

/// `who`'s progress in the endgame lessons, and what could not be read (in the user's
/// words); a guest has none.
pub(in crate::app::saving) fn load_endgames(
    files: &PlayerFiles,
    who: Who,
) -> (EndgameProgress, Option<String>) {
    let Some(id) = who.player() else {
        return (EndgameProgress::default(), None);
    };
    let load = files.load_endgames(id);
    let refused = load.recovered.map(|r| {
        log::error!("player {id}'s endgame lessons refused: {r}");
        tr!(
            "Your endgame lessons could not be read and start again: {}.",
            r
        )
    });
    (load.value, refused)
}

impl SaverState {
    /// A try at an endgame lesson by the current player: recorded, and written to their
    /// folder (a guest's is kept only until another player comes).
    pub(super) fn endgame_tried(&mut self, id: &str, passed: bool, moves: u32) -> Report {
        self.stores.endgames.record(id, passed, moves);
        let written = self.write_for_player(
            |files, player| files.save_endgames(player, &self.stores.endgames),
            SavingError::Endgames,
        );
        Report::Endgames(Box::new(self.stores.endgames.clone()), written)
    }
}

#[cfg(test)]
mod tests {
    use super::super::save_loop;
    use crate::app::saving::{Job, Report, Stores};
    use crate::storage::players::{PlayerFiles, PlayerId, Who};

    /// Two tries by player 1 reach their folder; a guest's tries touch no file, and player
    /// 1's progress comes back with them.
    #[test]
    fn tries_are_written_to_the_players_folder() {
        let dir = tempfile::tempdir().expect("dir");
        let run = |jobs: Vec<Job>| {
            let (stores, notices) = Stores::open(dir.path());
            assert!(notices.is_empty(), "{notices:?}");
            let (tx, rx) = std::sync::mpsc::channel();
            for job in jobs {
                tx.send(job).expect("send");
            }
            tx.send(Job::Stop).expect("send");
            let reports = std::sync::Mutex::new(Vec::new());
            save_loop(stores, &rx, |r| reports.lock().expect("lock").push(r));
            reports.into_inner().expect("lock")
        };
        let tried = |passed, moves| Job::EndgameTried {
            id: "krk-2".into(),
            passed,
            moves,
        };
        let reports = run(vec![tried(false, 3), tried(true, 14)]);
        let Some(Report::Endgames(progress, Ok(()))) = reports.last() else {
            panic!("{reports:?}");
        };
        assert_eq!(progress.get("krk-2").tries, 2);
        let files = PlayerFiles::new(dir.path());
        let kept = files.load_endgames(PlayerId::FIRST).value;
        assert_eq!(kept.get("krk-2").best_moves, Some(14));

        let reports = run(vec![Job::Choose(Who::Guest), tried(true, 9)]);
        let Some(Report::Endgames(guests, Ok(()))) = reports.last() else {
            panic!("{reports:?}");
        };
        assert_eq!(guests.get("krk-2").tries, 1, "the guest's own");
        assert_eq!(files.load_endgames(PlayerId::FIRST).value, kept);
        let reports = run(vec![Job::Choose(Who::Player(PlayerId::FIRST))]);
        let Some(Report::Player(news)) = reports.first() else {
            panic!("{reports:?}");
        };
        assert_eq!(news.endgames, kept);
    }
}
