//! Start-up: the game the autosave kept, the stores opened, and how a saved game's mode maps
//! to the app's `GameSetup` and back.

use crate::tr;
use std::path::Path;

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

use super::{GameIdentity, Stores};
use crate::app::model::mode::{GameSetup, Mode};
use crate::storage::{AutosaveStore, GameMode, LanLink, LoadOutcome, SavedGame};

/// The players of a saved game as the app plays them. `None` for a game the app cannot
/// continue (a LAN game: the peer is gone after a restart). A game without a computer keeps
/// `level`, the level the device has, for the next game against it.
pub fn setup_of(mode: &GameMode, level: Level) -> Option<GameSetup> {
    match *mode {
        GameMode::VsComputer { human, level } => Some(GameSetup {
            mode: Mode::Computer { human },
            level,
        }),
        GameMode::TwoPlayers => Some(GameSetup {
            mode: Mode::Friend,
            level,
        }),
        GameMode::ComputerVsComputer { white, .. } => Some(GameSetup {
            mode: Mode::Demo,
            level: white,
        }),
        GameMode::Lan { .. } => None,
    }
}

/// The players of a saved game (autosaved, or played on from Saved games), and for a network
/// game the partner to reconnect. `level` as for [`setup_of`].
pub fn restored_setup(
    mode: &GameMode,
    level: Level,
) -> Option<(GameSetup, Option<(String, LanLink)>)> {
    match mode {
        GameMode::Lan {
            local,
            peer,
            link: Some(link),
        } => Some((
            GameSetup {
                mode: Mode::Network { local: *local },
                level,
            },
            Some((peer.clone(), link.clone())),
        )),
        other => setup_of(other, level).map(|s| (s, None)),
    }
}

/// The saved form of the app's players.
pub fn mode_of(setup: &GameSetup) -> GameMode {
    match setup.mode {
        Mode::Computer { human } => GameMode::VsComputer {
            human,
            level: setup.level,
        },
        Mode::Friend => GameMode::TwoPlayers,
        Mode::Demo => GameMode::ComputerVsComputer {
            white: setup.level,
            black: setup.level,
        },
        Mode::Network { local } => GameMode::Lan {
            local,
            peer: "Partner".to_string(),
            link: None,
        },
    }
}

/// What the app starts with, read from the state directory.
pub struct Restored {
    /// The game and its players.
    pub game: Game,
    pub setup: GameSetup,
    /// The saved game's identity, kept so the archive and record see the same game.
    pub identity: Option<GameIdentity>,
    /// Something to tell the user once (a damaged file set aside), already logged.
    pub notice: Option<String>,
    /// A network game to reconnect: the partner's name and how to find it.
    pub lan: Option<(String, LanLink)>,
    /// The board was turned when the game was saved.
    pub flipped: bool,
    /// Whether the game still counts for the rating.
    pub rated: bool,
    /// The coach in the game.
    pub coach: chesspi_engine::coach::CoachLevel,
    /// The clocks as saved (they do not run while the device is off).
    pub clocks: Option<crate::storage::Clocks>,
    /// Who of the device's players sat at the game (a game from before players, or none
    /// restored: the player last at the device).
    pub seats: crate::storage::Seats,
}

/// Opens the state directory for play: the game to start with (see [`restore`]) and the
/// stores, with what to tell the user (already logged).
pub fn open(state_dir: &Path, fallback: (Game, GameSetup)) -> (Restored, Stores, Vec<String>) {
    let mut autosave = AutosaveStore::new(state_dir);
    let restored = restore(&mut autosave, fallback);
    let (mut stores, mut notices) = Stores::open(state_dir);
    stores.autosave = autosave;
    notices.splice(0..0, restored.notice.clone());
    (restored, stores, notices)
}

/// Reads the autosave: the saved game, or `fallback` when there is none or it is unusable.
pub fn restore(store: &mut AutosaveStore, fallback: (Game, GameSetup)) -> Restored {
    let fresh = |notice| Restored {
        game: fallback.0.clone(),
        setup: fallback.1,
        identity: None,
        notice,
        lan: None,
        flipped: false,
        rated: true,
        coach: chesspi_engine::coach::CoachLevel::Off,
        clocks: None,
        seats: crate::storage::Seats::none(),
    };
    match store.load() {
        LoadOutcome::Fresh => {
            log::info!("no saved game in {}: new game", store.path().display());
            fresh(None)
        }
        LoadOutcome::Restored(saved) => {
            log::info!(
                "restored the game from {} ({} moves, {} to move)",
                store.path().display(),
                saved.game.moves().len(),
                saved.turn()
            );
            from_saved(*saved, None, fallback.1.level).unwrap_or_else(fresh)
        }
        LoadOutcome::Recovered {
            reason,
            quarantined_path,
            fallback: earlier,
        } => {
            let kept = match &quarantined_path {
                Ok(path) => format!("the file was kept as {}", path.display()),
                Err(e) => format!("the file could not be set aside: {e}"),
            };
            log::error!("saved game refused: {reason}; {kept}");
            // The player is told in a player's words; the details are in the log.
            match earlier {
                Some(saved) => {
                    log::warn!("going on from the previous save");
                    let notice = tr!(
                        "The last save was damaged, so the game goes on from the move before it."
                    );
                    from_saved(*saved, Some(notice), fallback.1.level).unwrap_or_else(fresh)
                }
                None => fresh(Some(tr!(
                    "The saved game was damaged and could not be read, so a new game was \
                     started. A copy was kept for the record."
                ))),
            }
        }
    }
}

/// The app's start from a saved game; `Err` (with what to tell the player) when the app cannot
/// continue it.
fn from_saved(
    saved: SavedGame,
    notice: Option<String>,
    level: Level,
) -> Result<Restored, Option<String>> {
    match restored_setup(&saved.mode, level) {
        Some((setup, lan)) => Ok(Restored {
            identity: Some(GameIdentity {
                id: saved.id,
                started_unix: saved.started_unix,
            }),
            game: saved.game,
            setup,
            notice,
            lan,
            flipped: saved.flipped,
            rated: saved.rated,
            coach: saved.coach,
            clocks: saved.clocks,
            seats: saved.seats,
        }),
        None => {
            log::warn!("the saved game was a network game, which cannot resume: new game");
            Err(Some(tr!(
                "The network game could not be resumed; a new game was started."
            )))
        }
    }
}
