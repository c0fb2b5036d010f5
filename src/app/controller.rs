//! The game screen's logic: what a tap means, whose turn it is, what the screen says.
//!
//! The controller knows no Slint type. It takes the user's intents (a press on a square, a
//! button, a dialog choice) and the computer's answers, changes the game, and describes the
//! screen as plain data ([`super::view`] turns that into Slint models). Work for the computer
//! leaves as [`Effect`]s that the app shell hands to the worker thread.

use super::mode::{ColourChoice, Mode, ModeChoice, NewGameForm, Setup};
use chesspi_engine::game::{Game, GameError, Outcome, Termination};
use chesspi_engine::level::Level;
use chesspi_engine::san::to_san;
use chesspi_engine::{Color, Move, Piece, Position, Role, Square};

/// Something the app shell must do for the controller.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Search on the worker thread; the answer comes back through
    /// [`Controller::computer_answered`] with the same id.
    Think(ThinkRequest),
    /// Stop the search in progress; its answer, if any still arrives, is stale.
    CancelThinking,
    /// The game changed (a move, a takeback, a new game, a result). The place to save it.
    GameChanged,
    /// The user asked for the player's record.
    ShowStatistics,
    /// The user asked for the list of saved games.
    ShowGames,
    /// Open a saved game: for review, or to play on.
    OpenSaved { id: String, resume: bool },
    /// Delete a saved game (confirmed).
    DeleteSaved { id: String },
    /// The user stepped a device setting to its next value.
    ChangeSetting(Setting),
    /// A game against the computer was started at this level: the next one starts there too.
    LevelChosen(Level),
    /// The user confirmed shutting the device down (the game is already saved).
    Shutdown,
}

/// A setting the Settings dialog steps through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Brightness,
    DimAfter,
}

/// The device settings as the Settings dialog shows them (`None`: not on this device).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SettingsView {
    pub brightness_percent: Option<u8>,
    /// `Some(None)`: never dims.
    pub dim_after: Option<Option<std::time::Duration>>,
}

/// What the computer is asked to find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Its own move.
    Move,
    /// A suggestion for the player.
    Hint,
    /// Whether to accept the player's draw offer.
    DrawOffer,
}

/// The worker's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// A move (for [`Purpose::Move`] and [`Purpose::Hint`]); `None` when there is none.
    Move(Option<Move>),
    /// The computer's answer to a draw offer.
    Draw { accept: bool },
}

/// A search for the worker thread.
#[derive(Debug, Clone)]
pub struct ThinkRequest {
    pub id: u64,
    pub purpose: Purpose,
    pub game: Game,
    pub level: Level,
}

/// A button of the side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    NewGame,
    Undo,
    Hint,
    Flip,
    ResignOrDraw,
    Menu,
    Review,
    ReviewFirst,
    ReviewBack,
    ReviewForward,
    ReviewLast,
    ReviewDone,
}

impl Action {
    const ALL: [Action; 12] = [
        Action::NewGame,
        Action::Undo,
        Action::Hint,
        Action::Flip,
        Action::ResignOrDraw,
        Action::Menu,
        Action::Review,
        Action::ReviewFirst,
        Action::ReviewBack,
        Action::ReviewForward,
        Action::ReviewLast,
        Action::ReviewDone,
    ];

    /// Stable id used by the screen.
    pub fn id(self) -> &'static str {
        match self {
            Action::NewGame => "new",
            Action::Undo => "undo",
            Action::Hint => "hint",
            Action::Flip => "flip",
            Action::ResignOrDraw => "resign",
            Action::Menu => "menu",
            Action::Review => "review",
            Action::ReviewFirst => "first",
            Action::ReviewBack => "back",
            Action::ReviewForward => "forward",
            Action::ReviewLast => "last",
            Action::ReviewDone => "done",
        }
    }

    pub fn from_id(id: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.id() == id)
    }

    fn label(self) -> &'static str {
        match self {
            Action::NewGame => "New game",
            Action::Undo => "Undo",
            Action::Hint => "Hint",
            Action::Flip => "Flip",
            Action::ResignOrDraw => "Resign / Draw",
            Action::Menu => "Menu",
            Action::Review => "Review",
            Action::ReviewFirst => "|◀ Start",
            Action::ReviewBack => "◀ Back",
            Action::ReviewForward => "Next ▶",
            Action::ReviewLast => "End ▶|",
            Action::ReviewDone => "Done",
        }
    }
}

/// A button as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionItem {
    pub action: Action,
    pub label: &'static str,
    pub enabled: bool,
    pub primary: bool,
}

/// The open dialog, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    Menu,
    About,
    /// Resign, offer a draw, or claim one.
    ResignOrDraw,
    ConfirmResign,
    /// Two players: the other one answers a draw offer.
    DrawOffered {
        by: Color,
    },
    /// A claimable draw offered to the player on move.
    ClaimDraw(Termination),
    /// The power key or the menu asked to turn the device off.
    ConfirmShutdown,
    /// Brightness, dimming, and About.
    Settings,
    /// What to do with a game of the saved games list.
    SavedGame(SavedGameChoice),
    /// Deleting a saved game needs a second tap.
    ConfirmDelete(SavedGameChoice),
    /// Something to read and close.
    Info {
        title: String,
        message: String,
    },
}

/// A saved game picked from the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGameChoice {
    /// The archive id.
    pub id: String,
    /// "You – Level 4 (≈1390), 12 Nov 2026", as the list shows it.
    pub title: String,
    /// Whether it can be continued.
    pub unfinished: bool,
    /// Whether it can be read at all (a damaged file can only be deleted).
    pub readable: bool,
}

/// A saved game shown for review in place of the current game, which is put back after.
#[derive(Debug, Clone)]
struct Viewing {
    white: String,
    black: String,
    result: Option<ResultCard>,
    game: Game,
    setup: Setup,
    flipped: bool,
}

/// A choice in a dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogOption {
    pub id: &'static str,
    pub label: String,
    pub primary: bool,
    pub danger: bool,
}

/// A dialog as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogView {
    pub title: String,
    pub message: String,
    pub options: Vec<DialogOption>,
}

/// One square as the screen shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellView {
    pub piece: Option<Piece>,
    pub square_light: bool,
    pub selected: bool,
    pub last_move: bool,
    pub check: bool,
    pub hint: bool,
    pub target: bool,
    pub capture: bool,
    pub file_label: Option<char>,
    pub rank_label: Option<char>,
}

/// A player's line in the side panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub color: Color,
    pub name: String,
    pub detail: String,
    pub to_move: bool,
    /// The opponent's pieces this player has taken, pawns first.
    pub captured: Vec<Piece>,
    /// Material ahead, in pawns (0 when level or behind).
    pub advantage: u32,
}

/// The status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    /// Shown in red (check).
    pub alert: bool,
    pub thinking: bool,
}

/// One line of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveListRow {
    pub number: u32,
    pub white: Option<String>,
    pub black: Option<String>,
    /// Which of the two moves is the one shown on the board.
    pub white_current: bool,
    pub black_current: bool,
}

/// How the game ended, in the screen's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultCard {
    pub title: String,
    pub reason: String,
}

#[derive(Debug, Clone, Copy)]
struct Press {
    square: Square,
    /// The square was already selected: a tap on it (no drag) deselects.
    was_selected: bool,
}

/// The state of the game screen.
pub struct Controller {
    game: Game,
    setup: Setup,
    flipped: bool,
    selected: Option<Square>,
    press: Option<Press>,
    promotion: Option<(Square, Square)>,
    hint: Option<Move>,
    /// Ply of the position shown while reviewing a finished game.
    review: Option<usize>,
    /// The search in progress and what it is for.
    thinking: Option<(u64, Purpose)>,
    next_request: u64,
    dialog: Option<Dialog>,
    new_game: Option<NewGameForm>,
    /// The ply at which a claimable draw was last offered, so it is offered once.
    claim_offered_at: Option<usize>,
    /// A one-off message for the status line (e.g. a declined draw offer).
    note: Option<String>,
    /// Counts the games started, so saving can tell a new game from a changed one.
    serial: u64,
    /// Whether the menu offers to shut the device down (the device build, not a desktop).
    shutdown_allowed: bool,
    /// Set while a saved game is reviewed; holds the current game.
    viewing: Option<Viewing>,
    settings: SettingsView,
    effects: Vec<Effect>,
}

impl Controller {
    /// A new game from the start position.
    pub fn new(setup: Setup) -> Controller {
        Controller::with_game(Game::new(), setup)
    }

    /// A game already under way (a position from FEN, or a restored game).
    pub fn with_game(game: Game, setup: Setup) -> Controller {
        let mut c = Controller {
            game,
            setup,
            flipped: setup.bottom_color() == Color::Black,
            selected: None,
            press: None,
            promotion: None,
            hint: None,
            review: None,
            thinking: None,
            next_request: 1,
            dialog: None,
            new_game: None,
            claim_offered_at: None,
            note: None,
            serial: 0,
            shutdown_allowed: false,
            viewing: None,
            settings: SettingsView::default(),
            effects: Vec::new(),
        };
        c.after_change();
        c
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// Changes whenever another game replaces the current one (see [`Controller::start`]).
    pub fn game_serial(&self) -> u64 {
        self.serial
    }

    /// Lets the menu offer "Shut down" (on the device).
    pub fn allow_shutdown(&mut self) {
        self.shutdown_allowed = true;
    }

    /// The device settings to show in the Settings dialog.
    pub fn set_settings_view(&mut self, settings: SettingsView) {
        self.settings = settings;
    }

    /// Offers what can be done with a game picked from the saved games list.
    pub fn choose_saved(&mut self, choice: SavedGameChoice) {
        self.dialog = Some(Dialog::SavedGame(choice));
    }

    /// Whether a saved game is being reviewed (the current game is put aside meanwhile).
    pub fn is_viewing_saved(&self) -> bool {
        self.viewing.is_some()
    }

    /// Shows a saved game for review from its first position. The current game (already on
    /// disk) is put aside and comes back with Done; the computer stops thinking meanwhile.
    pub fn view_saved(&mut self, game: Game, white: &str, black: &str, result: Option<ResultCard>) {
        // Back to the current game first, then stop whatever it asked the computer for.
        self.leave_saved();
        self.cancel_thinking();
        let current = std::mem::replace(&mut self.game, game);
        self.viewing = Some(Viewing {
            white: white.to_string(),
            black: black.to_string(),
            result,
            game: current,
            setup: self.setup,
            flipped: self.flipped,
        });
        self.selected = None;
        self.press = None;
        self.promotion = None;
        self.hint = None;
        self.dialog = None;
        self.new_game = None;
        self.note = None;
        self.review = Some(0);
    }

    /// Puts the current game back after reviewing a saved one.
    fn leave_saved(&mut self) {
        if let Some(v) = self.viewing.take() {
            self.game = v.game;
            self.setup = v.setup;
            self.flipped = v.flipped;
            self.review = None;
            self.after_change();
        }
    }

    /// Asks the user to confirm shutting down (the power key).
    pub fn ask_shutdown(&mut self) {
        self.new_game = None;
        self.promotion = None;
        self.dialog = Some(Dialog::ConfirmShutdown);
    }

    pub fn is_flipped(&self) -> bool {
        self.flipped
    }

    pub fn selected(&self) -> Option<Square> {
        self.selected
    }

    /// The dialog open now, if any.
    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    /// The New game form while its dialog is open.
    pub fn new_game_form(&self) -> Option<&NewGameForm> {
        self.new_game.as_ref()
    }

    /// The squares a promotion is waiting for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.promotion
    }

    /// Whether the computer is searching for its move.
    pub fn is_computer_thinking(&self) -> bool {
        matches!(self.thinking, Some((_, Purpose::Move)))
    }

    /// Effects produced since the last call, oldest first.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// The position on the board (the reviewed one while reviewing).
    pub fn shown_position(&self) -> &Position {
        match self.review {
            Some(ply) => &self.game.positions()[ply],
            None => self.game.position(),
        }
    }

    fn shown_last_move(&self) -> Option<Move> {
        let ply = self.review.unwrap_or(self.game.moves().len());
        ply.checked_sub(1).map(|i| self.game.moves()[i])
    }

    /// Whether a person may move now.
    fn human_to_move(&self) -> bool {
        !self.game.is_over()
            && self.review.is_none()
            && self.setup.is_human(self.game.position().turn())
    }

    // ----- the board -----

    /// The square shown at a display cell (column and row from the top-left).
    pub fn square_at(&self, col: usize, row: usize) -> Option<Square> {
        if col > 7 || row > 7 {
            return None;
        }
        let (file, rank) = if self.flipped {
            (7 - col, row)
        } else {
            (col, 7 - row)
        };
        Square::new(rank * 8 + file)
    }

    /// The display cell (0..63, row-major from the top-left) of a square.
    pub fn cell_of(&self, sq: Square) -> usize {
        let (file, rank) = (sq.file().index(), sq.rank().index());
        if self.flipped {
            rank * 8 + (7 - file)
        } else {
            (7 - rank) * 8 + file
        }
    }

    /// The legal moves of the piece on `from` (in the current position).
    fn legal_from(&self, from: Square) -> Vec<Move> {
        let moves = self.game.position().legal_moves();
        moves.iter().copied().filter(|m| m.from() == from).collect()
    }

    fn is_target(&self, from: Square, to: Square) -> bool {
        self.legal_from(from).iter().any(|m| m.to() == to)
    }

    /// A finger or mouse button went down on a square (`None`: off the board).
    pub fn press(&mut self, square: Option<Square>) {
        self.press = None;
        self.note = None;
        if !self.human_to_move() || self.promotion.is_some() {
            return;
        }
        let Some(sq) = square else {
            self.selected = None;
            return;
        };
        if let Some(from) = self.selected
            && from != sq
            && self.is_target(from, sq)
        {
            self.move_from_to(from, sq);
            return;
        }
        let own = self
            .game
            .position()
            .piece_at(sq)
            .is_some_and(|p| p.color == self.game.position().turn());
        if own {
            self.press = Some(Press {
                square: sq,
                was_selected: self.selected == Some(sq),
            });
            self.selected = Some(sq);
        } else {
            self.selected = None;
        }
    }

    /// The finger or button came up (`None`: off the board). `dragged` when it moved away
    /// from where it went down.
    pub fn release(&mut self, square: Option<Square>, dragged: bool) {
        let Some(press) = self.press.take() else {
            return;
        };
        if self.selected != Some(press.square) {
            return;
        }
        if dragged {
            // A drop on a legal target moves; anywhere else the piece goes back, still selected.
            if let Some(to) = square
                && to != press.square
                && self.is_target(press.square, to)
            {
                self.move_from_to(press.square, to);
            }
        } else if square == Some(press.square) && press.was_selected {
            self.selected = None;
        }
    }

    fn move_from_to(&mut self, from: Square, to: Square) {
        let candidates: Vec<Move> = self
            .legal_from(from)
            .into_iter()
            .filter(|m| m.to() == to)
            .collect();
        match candidates.as_slice() {
            [] => {}
            [mv] => self.play_human(*mv),
            // Several moves between the same squares: a promotion; ask which piece.
            _ => self.promotion = Some((from, to)),
        }
    }

    /// The promotion picker's answer; `None` cancels (the pawn stays selected).
    pub fn choose_promotion(&mut self, role: Option<Role>) {
        let Some((from, to)) = self.promotion.take() else {
            return;
        };
        let Some(role) = role else {
            self.selected = Some(from);
            return;
        };
        let mv = self
            .legal_from(from)
            .into_iter()
            .find(|m| m.to() == to && m.promotion() == Some(role));
        if let Some(mv) = mv {
            self.play_human(mv);
        }
    }

    fn play_human(&mut self, mv: Move) {
        if self.human_to_move() && self.game.play(mv).is_ok() {
            self.cancel_hint();
            self.after_change();
        }
    }

    // ----- the computer -----

    /// The worker's answer to request `id`. Stale answers (after an undo, a new game, ...)
    /// are ignored.
    pub fn computer_answered(&mut self, id: u64, reply: Reply) {
        let Some((current, purpose)) = self.thinking else {
            return;
        };
        if current != id {
            return;
        }
        self.thinking = None;
        match (purpose, reply) {
            (Purpose::Move, Reply::Move(Some(mv))) => {
                let turn = self.game.position().turn();
                if self.setup.is_computer(turn) && self.game.play(mv).is_ok() {
                    self.after_change();
                }
            }
            (Purpose::Hint, Reply::Move(mv)) if self.human_to_move() => self.hint = mv,
            (Purpose::DrawOffer, Reply::Draw { accept: true }) => self.end_game(Game::agree_draw),
            (Purpose::DrawOffer, Reply::Draw { accept: false }) => {
                self.note = Some("The computer declines the draw — play on".to_string());
            }
            _ => {}
        }
    }

    fn request(&mut self, purpose: Purpose) {
        let id = self.next_request;
        self.next_request += 1;
        self.thinking = Some((id, purpose));
        self.effects.push(Effect::Think(ThinkRequest {
            id,
            purpose,
            game: self.game.clone(),
            level: self.setup.level,
        }));
    }

    fn cancel_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.effects.push(Effect::CancelThinking);
        }
    }

    /// Drops a hint and stops a search for one, or for a draw decision (the player moved on).
    fn cancel_hint(&mut self) {
        self.hint = None;
        if matches!(self.thinking, Some((_, Purpose::Hint | Purpose::DrawOffer))) {
            self.cancel_thinking();
        }
    }

    /// After every change of the game: clear the board state, ask the computer if it is its
    /// turn, offer a claimable draw to a person on move.
    fn after_change(&mut self) {
        self.selected = None;
        self.press = None;
        self.promotion = None;
        self.hint = None;
        self.effects.push(Effect::GameChanged);
        if self.game.is_over() {
            self.cancel_thinking();
            return;
        }
        let turn = self.game.position().turn();
        if self.setup.is_computer(turn) {
            if self.setup.mode == Mode::Demo && self.game.claimable_draw().is_some() {
                // The demo would otherwise shuffle on until the automatic draw.
                if self.game.claim_draw().is_ok() {
                    self.effects.push(Effect::GameChanged);
                }
                return;
            }
            if !self.is_computer_thinking() {
                self.cancel_thinking();
                self.request(Purpose::Move);
            }
        } else if let Some(termination) = self.game.claimable_draw() {
            let ply = self.game.moves().len();
            if self.claim_offered_at != Some(ply) && self.dialog.is_none() {
                self.claim_offered_at = Some(ply);
                self.dialog = Some(Dialog::ClaimDraw(termination));
            }
        }
    }

    // ----- buttons -----

    /// A side-panel button.
    pub fn action(&mut self, action: Action) {
        if !self
            .actions()
            .iter()
            .any(|a| a.action == action && a.enabled)
        {
            return;
        }
        self.note = None;
        match action {
            Action::NewGame => self.open_new_game(),
            Action::Undo => self.undo(),
            Action::Hint => {
                self.selected = None;
                self.hint = None;
                self.request(Purpose::Hint);
            }
            Action::Flip => self.flipped = !self.flipped,
            Action::ResignOrDraw => self.dialog = Some(Dialog::ResignOrDraw),
            Action::Menu => self.dialog = Some(Dialog::Menu),
            Action::Review => self.review = Some(self.game.moves().len()),
            Action::ReviewFirst => self.review = Some(0),
            Action::ReviewBack => self.review = self.review.map(|p| p.saturating_sub(1)),
            Action::ReviewForward => {
                let end = self.game.moves().len();
                self.review = self.review.map(|p| (p + 1).min(end));
            }
            Action::ReviewLast => self.review = Some(self.game.moves().len()),
            Action::ReviewDone => {
                self.review = None;
                self.leave_saved();
            }
        }
    }

    /// How many moves an Undo takes back: vs the computer, back to the player's previous
    /// turn (their move and the reply); between two players, one move.
    fn undo_count(&self) -> usize {
        let moves = self.game.moves().len();
        match self.setup.mode {
            Mode::Demo => 0,
            Mode::Friend => moves.min(1),
            Mode::Computer { human } => {
                // Take back until a move of the player's is undone and it is their turn.
                let positions = self.game.positions();
                let mut count = 0;
                let mut took_human_move = false;
                while count < moves {
                    let before = &positions[moves - count - 1];
                    count += 1;
                    if before.turn() == human {
                        took_human_move = true;
                        break;
                    }
                }
                if took_human_move { count } else { 0 }
            }
        }
    }

    fn undo(&mut self) {
        let count = self.undo_count();
        if count == 0 {
            return;
        }
        self.cancel_thinking();
        for _ in 0..count {
            self.game.undo();
        }
        self.review = None;
        // Do not offer the same claim again right after a takeback.
        self.claim_offered_at = Some(self.game.moves().len());
        self.after_change();
    }

    /// The buttons the side panel shows now.
    pub fn actions(&self) -> Vec<ActionItem> {
        let item = |action: Action, enabled: bool, primary: bool| ActionItem {
            action,
            label: action.label(),
            enabled,
            primary,
        };
        let moves = self.game.moves().len();
        if let Some(ply) = self.review {
            return vec![
                item(Action::ReviewFirst, ply > 0, false),
                item(Action::ReviewBack, ply > 0, false),
                item(Action::ReviewForward, ply < moves, false),
                item(Action::ReviewLast, ply < moves, false),
                item(Action::Flip, true, false),
                item(Action::ReviewDone, true, true),
            ];
        }
        let can_undo = self.undo_count() > 0;
        if self.game.is_over() {
            return vec![
                item(Action::NewGame, true, true),
                item(Action::Review, moves > 0, false),
                item(Action::Undo, can_undo, false),
                item(Action::Flip, true, false),
                item(Action::Menu, true, false),
            ];
        }
        let human_turn = self.human_to_move();
        let hint_running = self.thinking.is_some();
        let playing = self.setup.mode != Mode::Demo;
        vec![
            item(Action::NewGame, true, false),
            item(Action::Undo, can_undo, false),
            item(Action::Hint, human_turn && !hint_running, false),
            item(Action::Flip, true, false),
            item(Action::ResignOrDraw, playing, false),
            item(Action::Menu, true, false),
        ]
    }

    // ----- dialogs -----

    /// A choice in the open dialog, by id.
    pub fn dialog_option(&mut self, id: &str) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        match (dialog, id) {
            (Dialog::Menu, "new") => self.open_new_game(),
            (Dialog::Menu, "flip") => self.flipped = !self.flipped,
            (Dialog::Menu, "settings") => self.dialog = Some(Dialog::Settings),
            (Dialog::Settings, "about") => self.dialog = Some(Dialog::About),
            (Dialog::Settings, "brightness") => {
                self.effects
                    .push(Effect::ChangeSetting(Setting::Brightness));
                self.dialog = Some(Dialog::Settings);
            }
            (Dialog::Settings, "dim") => {
                self.effects.push(Effect::ChangeSetting(Setting::DimAfter));
                self.dialog = Some(Dialog::Settings);
            }
            (Dialog::Menu, "stats") => self.effects.push(Effect::ShowStatistics),
            (Dialog::Menu, "games") => self.effects.push(Effect::ShowGames),
            (Dialog::SavedGame(g), "review") => self.effects.push(Effect::OpenSaved {
                id: g.id,
                resume: false,
            }),
            (Dialog::SavedGame(g), "resume") => self.effects.push(Effect::OpenSaved {
                id: g.id,
                resume: true,
            }),
            (Dialog::SavedGame(g), "delete") => self.dialog = Some(Dialog::ConfirmDelete(g)),
            (Dialog::ConfirmDelete(g), "delete") => {
                self.effects.push(Effect::DeleteSaved { id: g.id });
            }
            (Dialog::Menu, "shutdown") => self.dialog = Some(Dialog::ConfirmShutdown),
            (Dialog::ConfirmShutdown, "shutdown") => {
                self.cancel_thinking();
                self.effects.push(Effect::Shutdown);
            }
            (Dialog::ResignOrDraw, "resign") => self.dialog = Some(Dialog::ConfirmResign),
            (Dialog::ResignOrDraw, "offer") => self.offer_draw(),
            (Dialog::ResignOrDraw | Dialog::ClaimDraw(_), "claim") => {
                self.end_game(Game::claim_draw);
            }
            (Dialog::ConfirmResign, "resign") => {
                let loser = self.resigning_color();
                self.end_game(|g| g.resign(loser));
            }
            (Dialog::DrawOffered { .. }, "accept") => self.end_game(Game::agree_draw),
            (Dialog::DrawOffered { by }, "decline") => {
                self.note = Some(format!("{} declined the draw", color_name(!by)));
            }
            // "close", "cancel", "play on" and anything unknown just close the dialog.
            _ => {}
        }
    }

    /// Ends the game by a result (resignation, agreement, claim) if the rules allow it now.
    fn end_game(&mut self, end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>) {
        if end(&mut self.game).is_ok() {
            self.after_change();
        }
    }

    /// A tap outside the dialog: the same as its cancel choice. A draw offer needs an answer.
    pub fn dialog_dismissed(&mut self) {
        if !matches!(self.dialog, Some(Dialog::DrawOffered { .. })) {
            self.dialog = None;
        }
    }

    /// Who resigns: the player on move between two people, the person against the computer.
    fn resigning_color(&self) -> Color {
        match self.setup.mode {
            Mode::Computer { human } => human,
            Mode::Friend | Mode::Demo => self.game.position().turn(),
        }
    }

    fn offer_draw(&mut self) {
        match self.setup.mode {
            Mode::Friend => {
                self.dialog = Some(Dialog::DrawOffered {
                    by: self.game.position().turn(),
                });
            }
            // The engine judges the position; see the worker for its rule.
            Mode::Computer { .. } => {
                if self.human_to_move() && self.thinking.is_none() {
                    self.request(Purpose::DrawOffer);
                }
            }
            Mode::Demo => {}
        }
    }

    /// The open dialog as the screen shows it.
    pub fn dialog_view(&self) -> Option<DialogView> {
        let option = |id: &'static str, label: &str, primary: bool, danger: bool| DialogOption {
            id,
            label: label.to_string(),
            primary,
            danger,
        };
        let view = |title: &str, message: String, options: Vec<DialogOption>| DialogView {
            title: title.to_string(),
            message,
            options,
        };
        Some(match self.dialog.as_ref()? {
            Dialog::Menu => {
                let mut options = vec![
                    option("new", "New game", false, false),
                    option("games", "Saved games", false, false),
                    option("stats", "Your record", false, false),
                    option("settings", "Settings", false, false),
                ];
                if self.shutdown_allowed {
                    options.push(option("shutdown", "Shut down", false, true));
                }
                options.push(option("close", "Close", true, false));
                view("Menu", String::new(), options)
            }
            Dialog::SavedGame(g) => {
                let mut options = Vec::new();
                if g.readable {
                    options.push(option("review", "Review the moves", !g.unfinished, false));
                }
                if g.unfinished && g.readable {
                    options.push(option("resume", "Play on", true, false));
                }
                options.push(option("delete", "Delete", false, true));
                options.push(option("cancel", "Back", false, false));
                let message = if !g.readable {
                    "This file cannot be read; it can only be deleted.".to_string()
                } else if g.unfinished {
                    "Unfinished: playing on puts your current game in this list.".to_string()
                } else {
                    String::new()
                };
                view(&g.title, message, options)
            }
            Dialog::ConfirmDelete(g) => view(
                "Delete this game?",
                format!("{} will be gone for good.", g.title),
                vec![
                    option("delete", "Yes, delete it", false, true),
                    option("cancel", "No, keep it", true, false),
                ],
            ),
            Dialog::ConfirmShutdown => view(
                "Shut down ChessPI?",
                "The game is saved and continues when you switch on again.".to_string(),
                vec![
                    option("shutdown", "Shut down", false, true),
                    option("cancel", "Cancel", true, false),
                ],
            ),
            Dialog::Settings => {
                let mut options = Vec::new();
                if let Some(b) = self.settings.brightness_percent {
                    options.push(option(
                        "brightness",
                        &format!("Brightness: {b} %"),
                        false,
                        false,
                    ));
                }
                if let Some(dim) = self.settings.dim_after {
                    let label = match dim {
                        None => "Dim the screen: never".to_string(),
                        Some(d) if d.as_secs() % 60 == 0 => {
                            format!("Dim the screen after {} min", d.as_secs() / 60)
                        }
                        Some(d) => format!("Dim the screen after {} s", d.as_secs()),
                    };
                    options.push(option("dim", &label, false, false));
                }
                options.push(option("about", "About ChessPI", false, false));
                options.push(option("close", "Close", true, false));
                let message = if options.len() == 2 {
                    "Brightness and dimming are set on the device.".to_string()
                } else {
                    "Tap a setting to change it.".to_string()
                };
                view("Settings", message, options)
            }
            Dialog::About => view(
                "About ChessPI",
                format!(
                    "ChessPI {} — a pocket chess computer. Free software under the GNU GPL \
                     version 3 or later. Pieces: Cburnett set (GPL). Font: DejaVu Sans.",
                    env!("CARGO_PKG_VERSION")
                ),
                vec![option("close", "Close", true, false)],
            ),
            Dialog::ResignOrDraw => {
                let mut options = Vec::new();
                if let Some(t) = self.game.claimable_draw() {
                    options.push(option("claim", &claim_label(t), true, false));
                }
                let resign = match self.setup.mode {
                    Mode::Friend => format!("{} resigns", color_name(self.game.position().turn())),
                    _ => "Resign".to_string(),
                };
                // Against the computer an offer is judged by a search, on the player's turn.
                let can_offer = match self.setup.mode {
                    Mode::Computer { .. } => self.human_to_move() && self.thinking.is_none(),
                    _ => true,
                };
                if can_offer {
                    options.push(option("offer", "Offer a draw", false, false));
                }
                options.push(option("resign", &resign, false, true));
                options.push(option("cancel", "Keep playing", false, false));
                view("Resign or draw?", String::new(), options)
            }
            Dialog::ConfirmResign => view(
                "Resign this game?",
                match self.setup.mode {
                    Mode::Friend => format!(
                        "{} gives up and {} wins.",
                        color_name(self.resigning_color()),
                        color_name(!self.resigning_color())
                    ),
                    _ => "The computer wins the game.".to_string(),
                },
                vec![
                    option("resign", "Yes, resign", false, true),
                    option("cancel", "No, keep playing", true, false),
                ],
            ),
            Dialog::DrawOffered { by } => view(
                &format!("{} offers a draw", color_name(*by)),
                format!("{}, do you accept?", color_name(!*by)),
                vec![
                    option("accept", "Accept the draw", true, false),
                    option("decline", "Decline, play on", false, false),
                ],
            ),
            Dialog::ClaimDraw(t) => view(
                "You may claim a draw",
                match t {
                    Termination::FiftyMoves => {
                        "50 moves without a capture or a pawn move.".to_string()
                    }
                    _ => "This position has now occurred three times.".to_string(),
                },
                vec![
                    option("claim", "Claim the draw", true, false),
                    option("cancel", "Play on", false, false),
                ],
            ),
            Dialog::Info { title, message } => view(
                title,
                message.clone(),
                vec![option("close", "Close", true, false)],
            ),
        })
    }

    /// Shows a message in a dialog (for other parts of the app: errors, notices).
    pub fn show_info(&mut self, title: &str, message: &str) {
        self.dialog = Some(Dialog::Info {
            title: title.to_string(),
            message: message.to_string(),
        });
    }

    // ----- new game -----

    fn open_new_game(&mut self) {
        self.dialog = None;
        self.new_game = Some(NewGameForm::from_setup(&self.setup));
    }

    /// Changes the New game form: mode (by id), colour and level.
    pub fn new_game_mode(&mut self, id: &str) {
        if let (Some(form), Some(mode)) = (self.new_game.as_mut(), ModeChoice::from_id(id)) {
            form.mode = mode;
        }
    }

    pub fn new_game_colour(&mut self, colour: ColourChoice) {
        if let Some(form) = self.new_game.as_mut() {
            form.colour = colour;
        }
    }

    pub fn new_game_level(&mut self, level: Level) {
        if let Some(form) = self.new_game.as_mut() {
            form.level = level;
        }
    }

    pub fn new_game_cancel(&mut self) {
        self.new_game = None;
    }

    /// Starts the game the form describes.
    pub fn new_game_start(&mut self) {
        if let Some(form) = self.new_game.take() {
            let setup = form.to_setup();
            if setup.mode != Mode::Friend {
                self.effects.push(Effect::LevelChosen(setup.level));
            }
            self.start(setup, Game::new());
        }
    }

    /// Replaces the game (a new game, or one restored from disk).
    pub fn start(&mut self, setup: Setup, game: Game) {
        self.cancel_thinking();
        self.viewing = None;
        self.serial += 1;
        self.game = game;
        self.setup = setup;
        self.flipped = setup.bottom_color() == Color::Black;
        self.review = None;
        self.dialog = None;
        self.new_game = None;
        self.claim_offered_at = None;
        self.note = None;
        self.after_change();
    }

    // ----- what the screen shows -----

    /// The 64 cells in display order (row-major from the top-left).
    pub fn cells(&self) -> [CellView; 64] {
        let pos = self.shown_position();
        let last = self.shown_last_move();
        let check_square = pos.is_check().then(|| pos.king_of(pos.turn()));
        let targets: Vec<Move> = match (self.selected, self.review) {
            (Some(from), None) => self.legal_from(from),
            _ => Vec::new(),
        };
        let mut cells = [CellView::default(); 64];
        for (cell, view) in cells.iter_mut().enumerate() {
            let Some(sq) = self.square_at(cell % 8, cell / 8) else {
                continue;
            };
            let piece = pos.piece_at(sq);
            let target = targets.iter().any(|m| m.to() == sq);
            *view = CellView {
                piece,
                square_light: sq.is_light(),
                selected: self.selected == Some(sq) && self.review.is_none(),
                last_move: last.is_some_and(|m| m.from() == sq || m.to() == sq),
                check: check_square == Some(sq),
                hint: self.hint.is_some_and(|m| m.from() == sq || m.to() == sq),
                target,
                capture: target
                    && (piece.is_some()
                        || targets.iter().any(|m| m.to() == sq && m.is_en_passant())),
                file_label: (cell / 8 == 7).then(|| sq.file().char()),
                rank_label: (cell % 8 == 0).then(|| sq.rank().char()),
            };
        }
        cells
    }

    /// The players' lines: (top of the board, bottom of the board).
    pub fn players(&self) -> (PlayerInfo, PlayerInfo) {
        let bottom = if self.flipped {
            Color::Black
        } else {
            Color::White
        };
        (self.player(!bottom), self.player(bottom))
    }

    fn player(&self, color: Color) -> PlayerInfo {
        let pos = self.shown_position();
        let level = self.setup.level;
        let computer = format!("Level {} · Elo {}", level.number(), level.elo());
        let (name, detail) = match (&self.viewing, self.setup.mode) {
            (Some(v), _) => {
                let name = if color == Color::White {
                    &v.white
                } else {
                    &v.black
                };
                (name.clone(), "Saved game".to_string())
            }
            (None, mode) => self.player_names(mode, color, computer),
        };
        let captured = captured_by(pos, color);
        let balance = material(pos, color) - material(pos, !color);
        PlayerInfo {
            color,
            name,
            detail,
            to_move: !self.game.is_over() && self.review.is_none() && pos.turn() == color,
            captured,
            advantage: balance.max(0) as u32,
        }
    }

    fn player_names(&self, mode: Mode, color: Color, computer: String) -> (String, String) {
        match mode {
            Mode::Computer { human } if human == color => ("You".to_string(), String::new()),
            Mode::Computer { .. } => ("Computer".to_string(), computer),
            Mode::Friend => (color_name(color).to_string(), String::new()),
            Mode::Demo => (format!("Computer ({})", color_name(color)), computer),
        }
    }

    /// The move list in SAN, with the move shown on the board marked.
    pub fn move_rows(&self) -> Vec<MoveListRow> {
        let shown_ply = self.review.unwrap_or(self.game.moves().len());
        let mut rows: Vec<MoveListRow> = Vec::new();
        let positions = self.game.positions();
        for (i, &mv) in self.game.moves().iter().enumerate() {
            let pos = &positions[i];
            let san = to_san(pos, mv);
            let current = i + 1 == shown_ply;
            if pos.turn() == Color::White || rows.is_empty() {
                rows.push(MoveListRow {
                    number: pos.fullmove_number(),
                    white: None,
                    black: None,
                    white_current: false,
                    black_current: false,
                });
            }
            if let Some(row) = rows.last_mut() {
                match pos.turn() {
                    Color::White => {
                        row.white = Some(san);
                        row.white_current = current;
                    }
                    Color::Black => {
                        row.black = Some(san);
                        row.black_current = current;
                    }
                }
            }
        }
        rows
    }

    /// The move list row of the move shown on the board (to keep it in view).
    pub fn focus_row(&self) -> Option<usize> {
        self.move_rows()
            .iter()
            .position(|r| r.white_current || r.black_current)
    }

    /// The result card once the game is over.
    pub fn result(&self) -> Option<ResultCard> {
        if let Some(v) = &self.viewing {
            return v.result.clone();
        }
        let outcome = self.game.outcome()?;
        Some(ResultCard {
            title: self.result_title(outcome),
            reason: reason_text(outcome),
        })
    }

    fn result_title(&self, outcome: Outcome) -> String {
        match (outcome.winner, self.setup.mode) {
            (None, _) => "Draw".to_string(),
            (Some(w), Mode::Computer { human }) if w == human => "You win!".to_string(),
            (Some(_), Mode::Computer { .. }) => "The computer wins".to_string(),
            (Some(w), _) => format!("{} wins", color_name(w)),
        }
    }

    /// The status line: what to do next, in plain words.
    pub fn status(&self) -> Status {
        let plain = |text: &str| Status {
            text: text.to_string(),
            alert: false,
            thinking: false,
        };
        if self.promotion.is_some() {
            return plain("Choose a piece for promotion");
        }
        if let Some(ply) = self.review {
            return plain(&match ply.checked_sub(1) {
                None => "Reviewing: the start position".to_string(),
                Some(i) => {
                    let before = &self.game.positions()[i];
                    let dots = match before.turn() {
                        Color::White => ".",
                        Color::Black => "…",
                    };
                    format!(
                        "Reviewing: after {}{dots} {}",
                        before.fullmove_number(),
                        to_san(before, self.game.moves()[i])
                    )
                }
            });
        }
        if let Some(result) = self.result() {
            return plain(&format!("{} — {}", result.title, result.reason));
        }
        if let Some(note) = &self.note {
            return plain(note);
        }
        let pos = self.game.position();
        let turn = pos.turn();
        if self.setup.is_computer(turn) {
            let text = match self.setup.mode {
                Mode::Demo => format!("{} is thinking…", color_name(turn)),
                _ => "Computer is thinking…".to_string(),
            };
            return Status {
                text,
                alert: false,
                thinking: true,
            };
        }
        match self.thinking {
            Some((_, Purpose::Hint)) => {
                return Status {
                    text: "Looking for a good move…".to_string(),
                    alert: false,
                    thinking: true,
                };
            }
            Some((_, Purpose::DrawOffer)) => {
                return Status {
                    text: "The computer considers your draw offer…".to_string(),
                    alert: false,
                    thinking: true,
                };
            }
            _ => {}
        }
        let who = match self.setup.mode {
            Mode::Friend => format!("{} to move", color_name(turn)),
            _ => "Your move".to_string(),
        };
        if let Some(hint) = self.hint {
            return plain(&format!("Hint: {} — the blue squares", to_san(pos, hint)));
        }
        if let Some(sq) = self.selected {
            let name = pos.piece_at(sq).map_or("piece", |p| role_name(p.role));
            if self.legal_from(sq).is_empty() {
                return plain(&format!("That {name} cannot move — tap another piece"));
            }
            return plain(&format!("Tap where the {name} should go"));
        }
        if pos.is_check() {
            return Status {
                text: format!("Check! {who} — save your king"),
                alert: true,
                thinking: false,
            };
        }
        plain(&format!("{who} — tap a piece"))
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn claim_label(t: Termination) -> String {
    match t {
        Termination::FiftyMoves => "Claim a draw (50 moves)".to_string(),
        _ => "Claim a draw (repetition)".to_string(),
    }
}

/// "by checkmate", "by stalemate", ... for the result card.
fn reason_text(outcome: Outcome) -> String {
    let text = match outcome.termination {
        Termination::Checkmate => "by checkmate",
        Termination::Stalemate => "by stalemate",
        Termination::Resignation => "by resignation",
        Termination::Agreement => "by agreement",
        Termination::ThreefoldRepetition => "by threefold repetition",
        Termination::FivefoldRepetition => "by fivefold repetition",
        Termination::FiftyMoves => "by the 50-move rule",
        Termination::SeventyFiveMoves => "by the 75-move rule",
        Termination::InsufficientMaterial => "by insufficient material",
        Termination::Time => "on time",
        Termination::Abandonment => "the opponent left",
    };
    text.to_string()
}

/// Pawn-unit values for the material balance.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn material(pos: &Position, color: Color) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| value(r) * pos.pieces(color, r).count() as i32)
        .sum()
}

/// The opponent's pieces missing from the board compared with a full set, weakest first.
/// (A promoted pawn counts as its new piece, so nothing goes negative.)
fn captured_by(pos: &Position, color: Color) -> Vec<Piece> {
    const FULL_SET: [(Role, u32); 5] = [
        (Role::Pawn, 8),
        (Role::Knight, 2),
        (Role::Bishop, 2),
        (Role::Rook, 2),
        (Role::Queen, 1),
    ];
    let them = !color;
    let mut out = Vec::new();
    for (role, full) in FULL_SET {
        let missing = full.saturating_sub(pos.pieces(them, role).count());
        for _ in 0..missing {
            out.push(Piece::new(them, role));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square name")
    }

    fn tap(c: &mut Controller, name: &str) {
        c.press(Some(sq(name)));
        c.release(Some(sq(name)), false);
    }

    fn friend() -> Setup {
        Setup {
            mode: Mode::Friend,
            level: Level::DEFAULT,
        }
    }

    fn think_ids(effects: &[Effect]) -> Vec<(u64, Purpose)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Think(r) => Some((r.id, r.purpose)),
                _ => None,
            })
            .collect()
    }

    fn targets(c: &Controller) -> Vec<Square> {
        let mut out: Vec<Square> = (0..64)
            .filter(|&i| c.cells()[i].target)
            .filter_map(|i| c.square_at(i % 8, i / 8))
            .collect();
        out.sort_by_key(|s| s.index());
        out
    }

    #[test]
    fn reviewing_a_saved_game_stops_the_computer_and_restores_the_game() {
        let mut c = Controller::new(Setup::FIRST_START);
        tap(&mut c, "e2");
        tap(&mut c, "e4");
        let asked = think_ids(&c.take_effects());
        assert_eq!(asked.len(), 1, "the computer is asked to move");
        let (id, _) = asked[0];

        let mut saved = Game::new();
        let d4 = saved
            .position()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to() == sq("d4"));
        saved.play(d4.expect("d2d4")).expect("legal");
        c.view_saved(saved, "You", "Level 2", None);
        assert!(c.is_viewing_saved());
        assert!(!c.is_computer_thinking());
        let effects = c.take_effects();
        assert!(effects.iter().any(|e| matches!(e, Effect::CancelThinking)));
        assert!(
            !effects.iter().any(|e| matches!(e, Effect::GameChanged)),
            "nothing to save"
        );

        // The answer to the old request arrives late: it must not land on the saved game.
        let reply = Game::new().position().legal_moves().iter().copied().next();
        c.computer_answered(id, Reply::Move(reply));
        assert_eq!(c.game().moves().len(), 1);
        assert_eq!(c.players().1.name, "You");

        c.action(Action::ReviewDone);
        assert!(!c.is_viewing_saved());
        assert_eq!(c.game().moves().len(), 1, "e4 is back");
        assert_eq!(to_san(&c.game().positions()[0], c.game().moves()[0]), "e4");
        assert_eq!(
            think_ids(&c.take_effects()).len(),
            1,
            "the computer thinks again"
        );
    }

    #[test]
    fn display_cells_map_to_squares_both_ways() {
        let mut c = Controller::new(friend());
        assert_eq!(c.square_at(0, 7), Some(sq("a1")));
        assert_eq!(c.square_at(4, 4), Some(sq("e4")));
        assert_eq!(c.cell_of(sq("e4")), 36);
        c.action(Action::Flip);
        assert_eq!(c.square_at(0, 7), Some(sq("h8")));
        assert_eq!(c.cell_of(sq("h8")), 56);
        assert_eq!(c.square_at(8, 0), None);
    }

    #[test]
    fn tapping_a_piece_shows_its_targets_and_a_target_moves() {
        let mut c = Controller::new(Setup::FIRST_START);
        c.take_effects();
        tap(&mut c, "e2");
        assert_eq!(c.selected(), Some(sq("e2")));
        assert_eq!(targets(&c), vec![sq("e3"), sq("e4")]);
        assert_eq!(c.status().text, "Tap where the pawn should go");
        tap(&mut c, "e4");
        assert_eq!(c.game().moves().len(), 1);
        assert_eq!(c.selected(), None);
        assert_eq!(think_ids(&c.take_effects()), vec![(1, Purpose::Move)]);
        assert!(c.status().thinking);
        // The computer's turn: taps do nothing.
        tap(&mut c, "d7");
        assert_eq!(c.selected(), None);
    }

    #[test]
    fn reselect_deselect_and_illegal_taps() {
        let mut c = Controller::new(friend());
        tap(&mut c, "g1");
        assert_eq!(targets(&c), vec![sq("f3"), sq("h3")]);
        tap(&mut c, "b1");
        assert_eq!(c.selected(), Some(sq("b1")));
        tap(&mut c, "b1");
        assert_eq!(
            c.selected(),
            None,
            "tapping the selected piece again deselects"
        );
        tap(&mut c, "b1");
        tap(&mut c, "b5");
        assert_eq!(c.selected(), None, "an illegal square deselects");
        assert!(c.game().moves().is_empty());
        tap(&mut c, "e7");
        assert_eq!(
            c.selected(),
            None,
            "the opponent's pieces cannot be selected"
        );
        tap(&mut c, "a1");
        assert_eq!(c.status().text, "That rook cannot move — tap another piece");
    }

    #[test]
    fn drag_and_drop() {
        let mut c = Controller::new(friend());
        c.press(Some(sq("e2")));
        assert_eq!(c.selected(), Some(sq("e2")), "a press selects at once");
        c.release(Some(sq("e5")), true);
        assert!(c.game().moves().is_empty(), "an illegal drop does nothing");
        assert_eq!(c.selected(), Some(sq("e2")));
        c.press(Some(sq("e2")));
        c.release(Some(sq("e4")), true);
        assert_eq!(c.game().moves().len(), 1);
        c.press(Some(sq("g8")));
        c.release(None, true);
        assert_eq!(
            c.selected(),
            Some(sq("g8")),
            "a drop off the board puts the piece back"
        );
    }

    #[test]
    fn promotion_asks_and_can_be_cancelled() {
        let game = Game::from_position(
            Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").expect("valid FEN"),
        );
        let mut c = Controller::with_game(game, friend());
        tap(&mut c, "e7");
        tap(&mut c, "e8");
        assert_eq!(c.pending_promotion(), Some((sq("e7"), sq("e8"))));
        assert_eq!(c.status().text, "Choose a piece for promotion");
        c.choose_promotion(None);
        assert_eq!(c.pending_promotion(), None);
        assert_eq!(c.selected(), Some(sq("e7")));
        tap(&mut c, "e8");
        c.choose_promotion(Some(Role::Knight));
        let last = *c.game().moves().last().expect("a move was played");
        assert_eq!(last.promotion(), Some(Role::Knight));
        assert_eq!(
            c.game().position().piece_at(sq("e8")).map(|p| p.role),
            Some(Role::Knight)
        );
    }

    #[test]
    fn undo_against_the_computer_takes_back_both_moves() {
        let mut c = Controller::new(Setup::FIRST_START);
        tap(&mut c, "e2");
        tap(&mut c, "e4");
        let (id, _) = think_ids(&c.take_effects())[0];
        let reply = c.game().position().legal_moves()[0];
        c.computer_answered(id, Reply::Move(Some(reply)));
        assert_eq!(c.game().moves().len(), 2);
        c.action(Action::Undo);
        assert!(c.game().moves().is_empty());
        assert!(
            think_ids(&c.take_effects()).is_empty(),
            "the player is on move again"
        );
    }

    #[test]
    fn undo_while_the_computer_thinks_cancels_and_ignores_its_answer() {
        let mut c = Controller::new(Setup::FIRST_START);
        tap(&mut c, "d2");
        tap(&mut c, "d4");
        let (id, _) = think_ids(&c.take_effects())[0];
        c.action(Action::Undo);
        assert!(c.game().moves().is_empty());
        assert!(
            c.take_effects()
                .iter()
                .any(|e| matches!(e, Effect::CancelThinking))
        );
        let stale = Position::startpos().legal_moves()[0];
        c.computer_answered(id, Reply::Move(Some(stale)));
        assert!(c.game().moves().is_empty(), "a stale answer is ignored");
    }

    #[test]
    fn playing_black_flips_the_board_and_the_computer_opens() {
        let setup = Setup {
            mode: Mode::Computer {
                human: Color::Black,
            },
            level: Level::DEFAULT,
        };
        let mut c = Controller::new(setup);
        assert!(c.is_flipped());
        assert_eq!(think_ids(&c.take_effects()).len(), 1);
        let actions = c.actions();
        let undo = actions
            .iter()
            .find(|a| a.action == Action::Undo)
            .expect("an Undo button");
        assert!(!undo.enabled, "nothing of the player's to take back");
        let (top, bottom) = c.players();
        assert_eq!(
            (top.name.as_str(), bottom.name.as_str()),
            ("Computer", "You")
        );
    }

    #[test]
    fn checkmate_ends_the_game_with_a_result_card() {
        let mut c = Controller::new(friend());
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            tap(&mut c, from);
            tap(&mut c, to);
        }
        let result = c.result().expect("the game is over");
        assert_eq!(result.title, "Black wins");
        assert_eq!(result.reason, "by checkmate");
        let ids: Vec<Action> = c.actions().iter().map(|a| a.action).collect();
        assert_eq!(ids[0], Action::NewGame);
        assert!(ids.contains(&Action::Review));
        // Review steps through the game with the board following.
        c.action(Action::Review);
        c.action(Action::ReviewFirst);
        assert_eq!(c.shown_position().to_fen(), Position::startpos().to_fen());
        c.action(Action::ReviewForward);
        assert_eq!(c.status().text, "Reviewing: after 1. f3");
        assert_eq!(c.focus_row(), Some(0));
        c.action(Action::ReviewDone);
        assert!(c.shown_position().is_checkmate());
    }

    #[test]
    fn resign_needs_confirmation() {
        let mut c = Controller::new(Setup::FIRST_START);
        c.action(Action::ResignOrDraw);
        assert_eq!(c.dialog(), Some(&Dialog::ResignOrDraw));
        c.dialog_option("resign");
        assert_eq!(c.dialog(), Some(&Dialog::ConfirmResign));
        assert!(!c.game().is_over());
        c.dialog_option("resign");
        let result = c.result().expect("resigned");
        assert_eq!(
            (result.title.as_str(), result.reason.as_str()),
            ("The computer wins", "by resignation")
        );
    }

    #[test]
    fn draw_offer_to_the_computer_is_judged_by_a_search() {
        let mut c = Controller::new(Setup::FIRST_START);
        c.take_effects();
        c.action(Action::ResignOrDraw);
        c.dialog_option("offer");
        let (id, purpose) = think_ids(&c.take_effects())[0];
        assert_eq!(purpose, Purpose::DrawOffer);
        assert!(c.status().thinking);
        c.computer_answered(id, Reply::Draw { accept: false });
        assert_eq!(c.status().text, "The computer declines the draw — play on");
        c.action(Action::ResignOrDraw);
        c.dialog_option("offer");
        let (id, _) = think_ids(&c.take_effects())[0];
        c.computer_answered(id, Reply::Draw { accept: true });
        assert_eq!(c.result().map(|r| r.title), Some("Draw".to_string()));
    }

    #[test]
    fn draw_offer_between_two_players() {
        let mut c = Controller::new(friend());
        c.action(Action::ResignOrDraw);
        c.dialog_option("offer");
        assert_eq!(c.dialog(), Some(&Dialog::DrawOffered { by: Color::White }));
        c.dialog_dismissed();
        assert!(c.dialog().is_some(), "an offer needs an answer");
        c.dialog_option("decline");
        assert_eq!(c.status().text, "Black declined the draw");
        c.action(Action::ResignOrDraw);
        c.dialog_option("offer");
        c.dialog_option("accept");
        assert_eq!(
            c.result().map(|r| r.reason),
            Some("by agreement".to_string())
        );
    }

    #[test]
    fn threefold_repetition_is_offered_once() {
        let mut c = Controller::new(friend());
        for _ in 0..2 {
            for (from, to) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
                tap(&mut c, from);
                tap(&mut c, to);
            }
        }
        assert_eq!(
            c.dialog(),
            Some(&Dialog::ClaimDraw(Termination::ThreefoldRepetition))
        );
        c.dialog_option("cancel");
        assert!(!c.game().is_over());
        c.action(Action::ResignOrDraw);
        c.dialog_option("claim");
        assert_eq!(
            c.result().map(|r| r.reason),
            Some("by threefold repetition".to_string())
        );
    }

    #[test]
    fn hint_highlights_the_suggested_move() {
        let mut c = Controller::new(Setup::FIRST_START);
        c.take_effects();
        c.action(Action::Hint);
        let (id, purpose) = think_ids(&c.take_effects())[0];
        assert_eq!(purpose, Purpose::Hint);
        assert_eq!(c.status().text, "Looking for a good move…");
        let mv = Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == sq("g1") && m.to() == sq("f3"))
            .expect("Nf3 is legal");
        c.computer_answered(id, Reply::Move(Some(mv)));
        assert!(c.cells()[c.cell_of(sq("f3"))].hint);
        assert!(c.status().text.starts_with("Hint: "));
        tap(&mut c, "e2");
        tap(&mut c, "e4");
        assert!(
            !c.cells()[c.cell_of(sq("f3"))].hint,
            "the hint goes with the next move"
        );
    }

    #[test]
    fn captured_material_and_balance() {
        let pos =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
                .expect("valid FEN");
        let c = Controller::with_game(Game::from_position(pos), friend());
        let (black, white) = c.players();
        assert_eq!(white.captured, vec![Piece::new(Color::Black, Role::Queen)]);
        assert_eq!(white.advantage, 9);
        assert!(black.captured.is_empty());
        assert_eq!(black.advantage, 0);
    }

    #[test]
    fn new_game_dialog_starts_the_chosen_game() {
        let mut c = Controller::new(Setup::FIRST_START);
        c.action(Action::NewGame);
        assert!(c.new_game_form().is_some());
        c.new_game_mode("demo");
        c.new_game_level(Level::new(2).expect("level 2"));
        c.take_effects();
        c.new_game_start();
        assert_eq!(c.setup().mode, Mode::Demo);
        assert_eq!(c.setup().level.number(), 2);
        assert!(c.new_game_form().is_none());
        assert_eq!(
            think_ids(&c.take_effects()).len(),
            1,
            "the demo starts at once"
        );
    }
}
