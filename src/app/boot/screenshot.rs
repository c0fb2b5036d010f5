//! `chesspi --screenshot OUT.png [--fen FEN] [--tap SQUARE]...`: the main screen, rendered
//! headless to a PNG.

use super::start::initial_game;
use crate::app::boot::headless::{self, HeadlessError};
use crate::app::shell::{App, AppError, apply_language};
use chesspi_engine::Square;
use slint::ComponentHandle;
use std::fmt;
use std::path::Path;

/// Why a screenshot failed.
#[derive(Debug)]
pub enum ScreenshotError {
    App(AppError),
    Headless(HeadlessError),
}

impl fmt::Display for ScreenshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScreenshotError::App(e) => e.fmt(f),
            ScreenshotError::Headless(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ScreenshotError {}

impl From<AppError> for ScreenshotError {
    fn from(e: AppError) -> ScreenshotError {
        ScreenshotError::App(e)
    }
}

impl From<HeadlessError> for ScreenshotError {
    fn from(e: HeadlessError) -> ScreenshotError {
        ScreenshotError::Headless(e)
    }
}

/// The centre of a square on the screen (in window coordinates) for a board shown with
/// White at the bottom (`flipped` false) or Black.
pub fn square_center(sq: Square, flipped: bool) -> (f32, f32) {
    let (file, rank) = (sq.file().index() as f32, sq.rank().index() as f32);
    let (col, row) = if flipped {
        (7.0 - file, rank)
    } else {
        (file, 7.0 - rank)
    };
    (col * 60.0 + 30.0, row * 60.0 + 30.0)
}

/// Renders the main screen for `fen` (the start position when `None`) after tapping the
/// given squares, and writes it to `out`.
///
/// # Errors
/// [`ScreenshotError`] for a bad FEN, a platform problem or a file that cannot be written.
pub fn screenshot(out: &Path, fen: Option<&str>, taps: &[Square]) -> Result<(), ScreenshotError> {
    headless::install()?;
    // In the configured language (`[display] language`, or LANG when "auto").
    let (config, _) =
        crate::config::Config::load_or_defaults(&crate::config::default_config_path());
    let language = config.display.language.resolve();
    crate::i18n::set_language(language);
    let (game, setup) = initial_game(fen)?;
    let app = App::new(game, setup)?;
    apply_language(language);
    app.window().show().map_err(AppError::Platform)?;
    for &sq in taps {
        let flipped = app.with_controller(|c| c.session().is_flipped());
        let (x, y) = square_center(sq, flipped);
        headless::tap(x, y)?;
    }
    let (frame, _) = headless::render()?;
    frame.save_png(out)?;
    Ok(())
}
