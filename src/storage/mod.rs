//! Files the app keeps: where they live and how they are written without ever being torn.

pub mod archive;
pub mod atomic;
pub mod autosave;
pub mod dirs;
pub mod endgames;
pub mod export;
pub mod glicko;
pub mod leitner;
pub mod openings;
pub mod peer_rating;
pub mod players;
pub mod puzzles;
pub mod quarantine;
pub mod sealed;
pub mod seats;
pub mod settings;
pub mod stats;
pub mod store;
pub mod timestamp;

pub use archive::{Archive, ArchiveError, ArchivedGame, GameHeader, GameId, GameSummary};
pub use atomic::{write_atomic, write_atomic_keeping};
pub use autosave::{
    AutosaveError, AutosaveStore, Clocks, GameMode, LanLink, LoadOutcome, SavedGame,
};
pub use dirs::{StateDirError, resolve_state_dir, state_dir};
pub use export::{ExportError, ExportReport, export_all, find_usb_mounts};
pub use quarantine::Recovery;
pub use seats::{Seat, Seats, Sides, Who};
pub use settings::{DeviceSettings, IdleTime, InvalidSetting, SettingsError, SettingsStore};
pub use stats::{PlayerResult, Stats, StatsStore, StatsSummary};
pub use store::{Load, Sealable, SealedStore, StoreError};
