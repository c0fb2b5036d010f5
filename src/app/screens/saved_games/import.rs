//! Saved games → From USB stick: an import's progress and outcome in the owner's words, with
//! what was left out and why.

use std::path::Path;

use crate::app::screens::ImportShown;
use crate::storage::archive::{ImportProgress, ImportReport, ImportStop};
use crate::{tr, trn};

/// How many refused games are named one by one.
const SHOWN_FAILURES: usize = 5;

/// The file as the dialog names it: its name only, made safe to show.
fn file_name(file: &Path) -> String {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    crate::text::shown(&name, 40)
}

/// Megabytes, rounded, for the owner.
fn megabytes(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1_000_000.0)
}

/// The progress as the import's dialog shows it.
pub fn shown(p: &ImportProgress) -> ImportShown {
    let percent = (p.bytes_read.saturating_mul(100))
        .checked_div(p.bytes_total)
        .unwrap_or(100)
        .min(100);
    ImportShown {
        games_read: p.games_read,
        stored: p.stored,
        percent: u8::try_from(percent).unwrap_or(100),
    }
}

/// A file that could not be imported at all.
pub fn failed_text(file: &Path, why: &str) -> String {
    tr!("{} could not be read: {}", file_name(file), why)
}

/// What an import did: the games added, those already there, each game refused with why (the
/// first five), and what was left out by a limit, the disk or the owner.
pub fn report_text(file: &Path, report: &ImportReport) -> String {
    let name = file_name(file);
    let mut lines = vec![trn!(
        "{} game from {} is in Saved games.",
        "{} games from {} are in Saved games.",
        report.imported.len(),
        name
    )];
    if !report.already_stored.is_empty() {
        lines.push(trn!(
            "{} game was there already and is kept as it was.",
            "{} games were there already and are kept as they were.",
            report.already_stored.len()
        ));
    }
    let refused: Vec<String> = report
        .failed
        .iter()
        .map(ToString::to_string)
        .chain(report.unplayable.iter().map(ToString::to_string))
        .collect();
    for error in refused.iter().take(SHOWN_FAILURES) {
        lines.push(tr!("Not added: {}", crate::text::shown(error, 120)));
    }
    if refused.len() > SHOWN_FAILURES {
        lines.push(tr!(
            "… and {} more not added",
            refused.len() - SHOWN_FAILURES
        ));
    }
    if let Some(cut) = report.file_cut {
        lines.push(tr!(
            "The file has {} MB: only its first {} MB were read, the rest was left out.",
            megabytes(cut.file_bytes),
            megabytes(cut.read_bytes)
        ));
    }
    match report.stopped {
        Some(ImportStop::GameLimit(n)) => lines.push(tr!(
            "One file adds at most {} games: the games after the {}th were left out.",
            n,
            n
        )),
        Some(ImportStop::DiskNearlyFull { free_bytes }) => lines.push(tr!(
            "The memory card is nearly full ({} MB free): the rest of the file was left out.",
            megabytes(free_bytes)
        )),
        Some(ImportStop::Cancelled) => {
            lines.push(tr!("Stopped: the rest of the file was left out."));
        }
        None => {}
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::archive::FileCut;

    #[test]
    fn what_was_left_out_is_said() {
        let report = ImportReport {
            stopped: Some(ImportStop::GameLimit(2000)),
            file_cut: Some(FileCut {
                read_bytes: 16_777_000,
                file_bytes: 52_000_000,
            }),
            ..ImportReport::default()
        };
        let text = report_text(Path::new("/media/STICK/big\u{202E}.pgn"), &report);
        assert!(
            text.starts_with("0 games from big.pgn are in Saved games."),
            "{text}"
        );
        assert!(
            text.contains("has 52.0 MB: only its first 16.8 MB"),
            "{text}"
        );
        assert!(text.contains("after the 2000th were left out"), "{text}");
    }

    #[test]
    fn progress_is_a_percentage_of_the_text() {
        let p = ImportProgress {
            games_read: 10,
            stored: 9,
            bytes_read: 250,
            bytes_total: 1000,
        };
        assert_eq!(shown(&p).percent, 25);
        assert_eq!(shown(&ImportProgress::default()).percent, 100);
    }
}
