//! Which screen is open, holding that screen's state: one value instead of one `Option` per
//! screen, so two screens cannot be open at once. Dialogs (the menu, offers, the promotion
//! picker) open on top of a screen and are kept beside it in the controller.

use super::analysis::board::Session;
use super::editor::Editor;
use super::network::lobby::Lobby;
use crate::app::model::mode::NewGameForm;

/// The open screen and its state.
#[derive(Debug, Clone, Default)]
pub(super) enum Screen {
    /// The game on the board (or a saved game looked through).
    #[default]
    Game,
    /// The New game form, over the game.
    NewGame(NewGameForm),
    /// Finding a partner (hosting, browsing, the keypad, connecting), over the game.
    Lobby(Lobby),
    /// The position editor.
    Editor(Box<Editor>),
    /// The analysis board.
    AnalysisBoard(Box<Session>),
    /// The list of saved games.
    SavedGames,
}

/// Which screen is open, without its state: what the window shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenKind {
    Game,
    NewGame,
    Lobby,
    Editor,
    AnalysisBoard,
    SavedGames,
}

impl Screen {
    pub(super) fn kind(&self) -> ScreenKind {
        match self {
            Screen::Game => ScreenKind::Game,
            Screen::NewGame(_) => ScreenKind::NewGame,
            Screen::Lobby(_) => ScreenKind::Lobby,
            Screen::Editor(_) => ScreenKind::Editor,
            Screen::AnalysisBoard(_) => ScreenKind::AnalysisBoard,
            Screen::SavedGames => ScreenKind::SavedGames,
        }
    }

    /// Back to the game if `kind` is the open screen (closing one that is not open does
    /// nothing).
    pub(super) fn close(&mut self, kind: ScreenKind) {
        if self.kind() == kind {
            *self = Screen::Game;
        }
    }

    pub(super) fn new_game(&self) -> Option<&NewGameForm> {
        match self {
            Screen::NewGame(form) => Some(form),
            _ => None,
        }
    }

    pub(super) fn new_game_mut(&mut self) -> Option<&mut NewGameForm> {
        match self {
            Screen::NewGame(form) => Some(form),
            _ => None,
        }
    }

    /// Closes the New game form, giving back what it held.
    pub(super) fn take_new_game(&mut self) -> Option<NewGameForm> {
        match std::mem::take(self) {
            Screen::NewGame(form) => Some(form),
            other => {
                *self = other;
                None
            }
        }
    }

    pub(super) fn lobby(&self) -> Option<&Lobby> {
        match self {
            Screen::Lobby(lobby) => Some(lobby),
            _ => None,
        }
    }

    pub(super) fn lobby_mut(&mut self) -> Option<&mut Lobby> {
        match self {
            Screen::Lobby(lobby) => Some(lobby),
            _ => None,
        }
    }

    pub(super) fn editor(&self) -> Option<&Editor> {
        match self {
            Screen::Editor(editor) => Some(editor),
            _ => None,
        }
    }

    pub(super) fn editor_mut(&mut self) -> Option<&mut Editor> {
        match self {
            Screen::Editor(editor) => Some(editor),
            _ => None,
        }
    }

    pub(super) fn analysis_board(&self) -> Option<&Session> {
        match self {
            Screen::AnalysisBoard(session) => Some(session),
            _ => None,
        }
    }

    pub(super) fn analysis_board_mut(&mut self) -> Option<&mut Session> {
        match self {
            Screen::AnalysisBoard(session) => Some(session),
            _ => None,
        }
    }
}
