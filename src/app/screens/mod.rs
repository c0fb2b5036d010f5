//! The screens: one folder per screen or feature, and here the [`Controller`] — the one
//! state of everything on screen — with the [`Effect`]s it asks of the shell.
//!
//! The controller takes the user's intents (a press on a square, a button, a dialog choice)
//! and the workers' answers, changes the game, and describes the screen as plain data; each
//! screen's `view.rs` turns that into Slint models.
//! Work off the UI thread leaves as [`Effect`]s that the shell carries out.
//!
//! A screen with a state of its own (the editor, New game, the lobby, the analysis board,
//! Train, Wi-Fi, Help) keeps its logic as methods of that state, reached through
//! [`Controller::on`] with a [`Ctx`] (the game session, the shell's effects, and [`Go`]: where
//! to send the user next). Features beside the open screen (the game's board and side
//! panel, game analysis, a saved game looked through, the network partner) are [`Parts`],
//! reached the same way through [`Controller::part`] (the board through [`Controller::play`]).
//! Opening a screen is a [`Go`]. The controller keeps a game's lifecycle and the shell's
//! entry points (dialogs, clocks, the computer's answers):
//! - [`play`]: the board's taps and drags, the side panel's buttons, the computer's thinking,
//!   the clocks, and every word the game screen shows ([`play::present`]: the `GameView`);
//! - [`new_game`]: the New game form;
//! - [`dialogs`]: the menu and every dialog, Settings, "Your record";
//! - [`saved_games`]: the list's rows, and a saved game looked through in place of the current
//!   one ([`Viewing`]);
//! - [`analysis`]: game analysis ([`Analysis`]), and the analysis board ([`analysis::board`]);
//! - [`editor`]: setting up a position by hand and starting a game from it;
//! - [`network`]: finding a partner, the game with them, its shared clock.
//!
//! Shared, owned by no screen: [`board_view`] (a board's cells and their Slint models),
//! [`board_input`] (a board's touches), [`dialog`] (which dialog is open), [`words`]
//! (colours, pieces, endings in words) and [`keyboard`] (the on-screen keyboard). A screen never imports another's files
//! (`app::import_rules` checks it).

pub mod analysis;
pub mod board_input;
pub mod board_view;
pub mod coach;
pub mod dialog;
pub mod dialogs;
pub mod editor;
pub mod endgames;
mod go;
pub use go::Go;
pub mod help;
pub mod keyboard;
pub mod network;
pub mod new_game;
pub mod openings;
pub mod play;
pub mod players;
pub mod saved_games;
#[cfg(test)]
mod test_support;
pub mod train;
pub mod wifi;
pub mod words;

pub use crate::app::model::settings::{Setting, SettingsView};
pub use crate::app::session::effect::Effect;
pub use crate::app::session::marks::AnalysisMarks;
pub use crate::app::session::partner::NetworkEffect;
pub use crate::app::session::partner::{LanRequest, Partner};
pub use crate::app::session::thinking::{EndgameReply, Purpose, Reply, ThinkRequest};
pub use analysis::board::{AnalysisBoardView, LineView};
pub use analysis::{Analysis, AnalysisView};
pub use board_view::CellView;
pub use dialog::{Dialog, DialogOption, DialogView, ImportShown, SavedGameChoice};
pub use editor::{CastlingChoice, EditorPlay, EditorView};
pub use network::lobby::{HostEntry, KeyPurpose, KeypadView, Lobby, address_target};
pub use play::buttons::{Action, ActionItem};
pub use play::present::{MoveListRow, PlayerInfo, Status};
pub use words::termination_reason;
pub use words::{ResultCard, ResultTone};

use crate::app::model::mode::{GameSetup, Mode, NewGameForm};
use crate::app::session::game::GameSession;
use crate::app::session::player::Player;
use analysis::board::Session;
use chesspi_engine::game::Game;
// The screens' tests import `screens::*` and set levels.
use chesspi_engine::Color;
#[cfg(test)]
use chesspi_engine::level::Level;
pub use editor::Editor;
pub use saved_games::viewing::Viewing;

/// Runs a change on the controller, carries out its effects and shows the result: the shell
/// hands one to each screen's wiring, so a screen's callbacks reach the controller without
/// knowing the shell.
pub type Dispatch = std::rc::Rc<dyn Fn(Box<dyn FnOnce(&mut Controller)>)>;

/// Which screen is open, holding that screen's state: one value instead of one `Option` per
/// screen, so two screens cannot be open at once. Dialogs (the menu, offers, the promotion
/// picker) open on top of a screen and are kept beside it in the controller.
#[derive(Debug, Clone, Default)]
pub enum Screen {
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
    /// Help: how to play, the rules, the buttons.
    Help(help::Help),
    /// Train: puzzles from the player's own mistakes.
    Train(Box<train::Training>),
    /// Settings → Wi-Fi.
    Wifi(Box<wifi::WifiScreen>),
    /// Settings → Players: adding, renaming and removing the device's players.
    Players(Box<players::PlayersScreen>),
    /// Openings: an opening's lines drilled as cards.
    Openings(Box<openings::OpeningsScreen>),
    /// Endgames: lessons in the endgames every player must know, played against the computer.
    Endgames(Box<endgames::Endgames>),
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
    Help,
    Train,
    Wifi,
    Players,
    Openings,
    Endgames,
}

impl Screen {
    fn kind(&self) -> ScreenKind {
        match self {
            Screen::Game => ScreenKind::Game,
            Screen::NewGame(_) => ScreenKind::NewGame,
            Screen::Lobby(_) => ScreenKind::Lobby,
            Screen::Editor(_) => ScreenKind::Editor,
            Screen::AnalysisBoard(_) => ScreenKind::AnalysisBoard,
            Screen::SavedGames => ScreenKind::SavedGames,
            Screen::Help(_) => ScreenKind::Help,
            Screen::Train(_) => ScreenKind::Train,
            Screen::Wifi(_) => ScreenKind::Wifi,
            Screen::Players(_) => ScreenKind::Players,
            Screen::Openings(_) => ScreenKind::Openings,
            Screen::Endgames(_) => ScreenKind::Endgames,
        }
    }

    /// Back to the game if `kind` is the open screen (closing one that is not open does
    /// nothing).
    fn close(&mut self, kind: ScreenKind) {
        if self.kind() == kind {
            *self = Screen::Game;
        }
    }

    fn new_game(&self) -> Option<&NewGameForm> {
        match self {
            Screen::NewGame(form) => Some(form),
            _ => None,
        }
    }
}

/// What a screen's method may touch beyond its own state: the game, the shell's work, and
/// where to go next.
pub struct Ctx<'a> {
    pub session: &'a mut GameSession,
    /// The player's puzzles: Train picks from them and records its tries. The controller
    /// keeps the book, not Train, because it outlives the screen (the menu counts the due
    /// ones, the saver's reports replace it).
    pub(in crate::app::screens) puzzles: &'a mut crate::storage::puzzles::PuzzleBook,
    /// The player's opening cards: Openings prefers the due lines and records its tries
    /// (kept by the controller for the same reasons as the puzzles).
    pub(in crate::app::screens) openings: &'a mut crate::storage::openings::OpeningCards,
    /// Whether this device has Wi-Fi (the lobby offers and looks for hotspots).
    pub(in crate::app::screens) wifi_allowed: bool,
    /// The device's players (New game seats them).
    pub(in crate::app::screens) roster: &'a crate::storage::players::Roster,
    /// The dialog over the screen: a part or screen may open or close one.
    pub dialog: &'a mut Option<Dialog>,
    next: Vec<Go>,
    /// The player's progress in the endgame lessons: Endgames records its tries (kept by the
    /// controller, as the puzzles are, for the saver's reports to replace).
    pub(in crate::app::screens) endgames: &'a mut crate::storage::endgames::EndgameProgress,
}

impl Ctx<'_> {
    /// Asks the shell for `effect`.
    pub fn effect(&mut self, effect: Effect) {
        self.session.effect(effect);
    }

    /// Goes there once the screen's method returns.
    pub fn go(&mut self, go: Go) {
        self.next.push(go);
    }

    /// Stops the search in progress: a screen that needs the worker (Train's judgement)
    /// takes it over.
    pub fn cancel_thinking(&mut self) {
        self.session.cancel_thinking();
    }
}

/// A screen's state as the open [`Screen`] holds it.
pub trait ScreenState {
    fn of(screen: &Screen) -> Option<&Self>;
    fn of_mut(screen: &mut Screen) -> Option<&mut Self>;
}

/// Each screen's state type is found in its variant of [`Screen`].
macro_rules! screen_state {
    ($($variant:ident($state:ty),)*) => {$(
        impl ScreenState for $state {
            fn of(screen: &Screen) -> Option<&$state> {
                match screen {
                    Screen::$variant(state) => Some(state),
                    _ => None,
                }
            }

            fn of_mut(screen: &mut Screen) -> Option<&mut $state> {
                match screen {
                    Screen::$variant(state) => Some(state),
                    _ => None,
                }
            }
        }
    )*};
}

screen_state! {
    NewGame(NewGameForm),
    Lobby(Lobby),
    Editor(Editor),
    AnalysisBoard(Session),
    Help(help::Help),
    Train(train::Training),
    Wifi(wifi::WifiScreen),
    Players(players::PlayersScreen),
    Openings(openings::OpeningsScreen),
    Endgames(endgames::Endgames),
}

/// What the controller holds beside the game session and the open screen: each field a
/// [`Part`], whose methods take a [`Ctx`] like a screen's and are reached through
/// [`Controller::part`] (to change) and [`Controller::get`] (to read).
#[derive(Default)]
pub struct Parts {
    /// Game analysis: the game on the board's, and one asked for a saved game being opened.
    analysis: Analysis,
    /// A saved game looked through in place of the current one (which it holds).
    viewing: Viewing,
    /// The network game beside its partner in the session.
    partner: network::partner::PartnerGame,
    /// The game's board: its selection, a press, a waiting promotion.
    play: play::board::Play,
}

/// A part of the controller's state, found in [`Parts`].
pub trait Part {
    fn of(parts: &Parts) -> &Self;
    fn of_mut(parts: &mut Parts) -> &mut Self;
}

/// Each part's type is found in its field of [`Parts`].
macro_rules! parts {
    ($($field:ident: $part:ty,)*) => {$(
        impl Part for $part {
            fn of(parts: &Parts) -> &$part {
                &parts.$field
            }

            fn of_mut(parts: &mut Parts) -> &mut $part {
                &mut parts.$field
            }
        }
    )*};
}

parts! {
    analysis: Analysis,
    viewing: Viewing,
    partner: network::partner::PartnerGame,
    play: play::board::Play,
}

/// The state of the game screen.
pub struct Controller {
    /// The game on the board and how it is played.
    session: GameSession,
    /// The open screen, with its state.
    screen: Screen,
    /// A dialog (the menu, an offer, a message) over the screen.
    dialog: Option<Dialog>,
    /// What this device offers that another may not (Shut down, Wi-Fi).
    allowed: Allowed,
    settings: SettingsView,
    /// What the controller holds beside the session and the open screen.
    parts: Parts,
    /// The player's puzzles and fitting level (the saver's copy).
    player: Player,
}

impl Controller {
    /// A new game from the start position.
    pub fn new(setup: GameSetup) -> Controller {
        Controller::with_game(Game::new(), setup)
    }

    /// A game already under way (a position from FEN, or a restored game).
    pub fn with_game(game: Game, setup: GameSetup) -> Controller {
        let mut c = Controller {
            session: GameSession::new(game, setup),
            screen: Screen::Game,
            dialog: None,
            allowed: Allowed::default(),
            settings: SettingsView::default(),
            parts: Parts::default(),
            player: Player::default(),
        };
        c.after_change();
        c
    }

    /// The game on the board and how it is played.
    pub fn session(&self) -> &GameSession {
        &self.session
    }

    /// The game, to set it as it was saved (after a restart).
    pub fn session_mut(&mut self) -> &mut GameSession {
        &mut self.session
    }

    /// The player's puzzles and fitting level.
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// The player, to take the saver's reports.
    pub fn player_mut(&mut self) -> &mut Player {
        &mut self.player
    }

    /// Runs a screen's method on its state, if that screen is open, then goes where it
    /// sends the user.
    pub fn on<S: ScreenState>(&mut self, f: impl FnOnce(&mut S, &mut Ctx)) {
        self.run(|screen, cx| {
            if let Some(state) = S::of_mut(screen) {
                f(state, cx);
            }
        });
    }

    /// Runs `f` with the open screen and a [`Ctx`], then goes where it sends the user.
    fn run(&mut self, f: impl FnOnce(&mut Screen, &mut Ctx)) {
        self.with_ctx(|screen, _, cx| f(screen, cx));
    }

    /// Runs a method of the part `P` with a [`Ctx`], then goes where it sends the user; its
    /// answer is returned.
    pub fn part<P: Part, R>(&mut self, f: impl FnOnce(&mut P, &mut Ctx) -> R) -> R {
        self.with_ctx(|_, parts, cx| f(P::of_mut(parts), cx))
    }

    /// The one place a [`Ctx`] is built: `f` gets the open screen, the parts and the
    /// context; the `Go`s it sent are carried out after it returns.
    fn with_ctx<R>(&mut self, f: impl FnOnce(&mut Screen, &mut Parts, &mut Ctx) -> R) -> R {
        let mut cx = Ctx {
            session: &mut self.session,
            puzzles: &mut self.player.puzzles,
            openings: &mut self.player.openings,
            wifi_allowed: self.allowed.wifi,
            roster: &self.player.roster,
            dialog: &mut self.dialog,
            next: Vec::new(),
            endgames: &mut self.player.endgames,
        };
        let answer = f(&mut self.screen, &mut self.parts, &mut cx);
        for go in cx.next {
            self.go(go);
        }
        answer
    }

    /// The part `P`, to read.
    pub fn get<P: Part>(&self) -> &P {
        P::of(&self.parts)
    }

    /// The open screen's state, if it is `S`.
    pub fn shown<S: ScreenState>(&self) -> Option<&S> {
        S::of(&self.screen)
    }

    /// Which screen is open (the window shows it, and the dialog on top if any).
    pub fn screen(&self) -> ScreenKind {
        self.screen.kind()
    }

    /// Effects produced since the last call, oldest first.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        self.session.take_effects()
    }

    /// After every change of the game: clear the board state, have the coach judge a
    /// person's move, ask the computer if it is its turn, offer a claimable draw to a person
    /// on move (see [`GameSession::changed`]).
    fn after_change(&mut self) {
        self.parts.play.input.clear();
        self.turn_to_mover();
        if self.session.changed(self.settings.book) {
            return;
        }
        self.next_turn();
    }

    /// The game goes on: the computer is asked for its move, or a person on move is offered
    /// a claimable draw (see [`GameSession::next_turn`]).
    fn next_turn(&mut self) {
        let may_offer = self.dialog.is_none();
        if let Some(termination) = self.session.next_turn(self.settings.book, may_offer) {
            self.dialog = Some(Dialog::ClaimDraw(termination));
        }
    }

    /// Two players with the board turning (a device setting): the player on move sits at the
    /// bottom.
    fn turn_to_mover(&mut self) {
        if self.settings.turn_board
            && self.session.setup.mode == Mode::Friend
            && self.session.review.is_none()
        {
            self.session.flipped = self.session.game.position().turn() == Color::Black;
        }
    }

    /// Replaces the game (a new game, or one restored from disk).
    pub fn start(&mut self, setup: GameSetup, game: Game) {
        self.session.cancel_thinking();
        self.go(Go::DropAnalysis);
        self.parts.viewing.forget();
        self.dialog = None;
        self.screen.close(ScreenKind::NewGame);
        self.screen.close(ScreenKind::Lobby);
        self.session.replace(setup, game, self.settings.coach);
        self.session.set_assist(self.settings.assist);
        // The person at the device plays; between two people the other one is a guest until
        // New game seats them.
        let current = self.player.current();
        let sides = match setup.mode {
            crate::app::model::mode::Mode::Friend => crate::storage::Sides {
                white: current,
                black: crate::storage::Who::Guest,
            },
            _ => crate::storage::Sides::both(current),
        };
        self.session.set_sides(sides);
        self.after_change();
    }

    /// The device settings as the game follows them (the coach a new game starts with, the
    /// opening book).
    pub fn settings(&self) -> &SettingsView {
        &self.settings
    }

    /// Lets the menu or Settings offer `what`: the shell found the device can.
    pub fn allow(&mut self, what: Allow) {
        match what {
            Allow::Shutdown => self.allowed.shutdown = true,
            Allow::Wifi => self.allowed.wifi = true,
        }
    }
}

/// What a device may offer that another may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allow {
    /// The menu's "Shut down" (the device build, not a desktop).
    Shutdown,
    /// Settings → Wi-Fi (the app has a Wi-Fi thread).
    Wifi,
}

/// Which of [`Allow`] the shell allowed.
#[derive(Debug, Clone, Copy, Default)]
struct Allowed {
    shutdown: bool,
    wifi: bool,
}
