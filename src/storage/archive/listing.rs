//! The Saved games list: every file's summary, read once and kept while the file keeps its
//! size and time, so that listing thousands of games costs a directory read and a `stat` each
//! rather than reading and replaying every game again.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::time::SystemTime;

use super::{Archive, ArchiveError, GameId, GameSummary};

/// What tells that a file changed: every write replaces it by a rename (a new inode), and
/// its size and time come along for file systems that reuse inode numbers.
type Stamp = (u64, u64, Option<SystemTime>);

/// Each file's summary and the stamp it was read at.
#[derive(Debug, Default)]
pub(super) struct Cache {
    entries: HashMap<GameId, (Stamp, GameSummary)>,
}

impl Archive {
    /// Every game, newest first. Damaged files are listed as [`GameSummary::Damaged`].
    ///
    /// # Errors
    /// The directory cannot be listed.
    pub fn list(&self) -> Result<Vec<GameSummary>, ArchiveError> {
        let mut ids = self.entries()?;
        ids.sort_by_key(|id| std::cmp::Reverse(id.number()));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut fresh = HashMap::with_capacity(ids.len());
        let list = ids
            .into_iter()
            .map(|id| {
                let stamp: Option<Stamp> = std::fs::metadata(self.dir.join(id.file_name()))
                    .map(|m| (m.ino(), m.len(), m.modified().ok()))
                    .ok()
                    .filter(|(_, _, time)| time.is_some());
                let cached = cache
                    .entries
                    .remove(&id)
                    .filter(|(was, _)| Some(*was) == stamp);
                let summary = match cached {
                    Some((_, summary)) => summary,
                    None => self.summary(&id),
                };
                if let Some(stamp) = stamp {
                    fresh.insert(id, (stamp, summary.clone()));
                }
                summary
            })
            .collect();
        // Files gone since the last listing leave the cache with it.
        cache.entries = fresh;
        Ok(list)
    }

    /// One file's summary, read from the disk.
    fn summary(&self, id: &GameId) -> GameSummary {
        match self.load(id) {
            Ok(game) => GameSummary::Game(game.header),
            Err(e) => GameSummary::Damaged {
                reason: match e {
                    ArchiveError::Damaged { reason, .. } => reason,
                    other => other.to_string(),
                },
                id: id.clone(),
            },
        }
    }
}
