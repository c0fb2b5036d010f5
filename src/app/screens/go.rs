//! Where the user goes next: a screen or part names it as a [`Go`], the controller carries
//! it out once the screen's method returns, so a screen never reaches into another.

use super::analysis::{self, Analysis};
use super::saved_games::viewing::{SavedGame, Viewing};
use super::{
    Controller, Dialog, Editor, Effect, Lobby, Purpose, Screen, ScreenKind, help, network,
    openings, players, train,
};
use crate::app::model::mode::{GameSetup, NewGameForm};
use crate::app::session::coach::CoachAnswer;
use crate::app::session::marks::AnalysisMarks;
use crate::app::session::partner::PartnerStep;
use crate::storage::Who;
use crate::storage::players::{PlayerId, Roster};
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Position};

/// Where a screen sends the user next: carried out by the controller once the screen's
/// method returns, so a screen never reaches into another.
#[derive(Debug, Clone)]
pub enum Go {
    /// Close the open screen: back to the game.
    Back,
    /// The analysis board on the position shown.
    AnalysisBoard,
    /// The analysis board on this position.
    AnalysisBoardAt(Position),
    /// A new game (it replaces the one on the board, already saved); `rated: false` keeps it
    /// out of the player's rating. `coach` replaces the Settings' coach once the game is
    /// started, and `clock` times it (New game chooses both; `None` leaves them as a start
    /// sets them).
    Start {
        setup: GameSetup,
        game: Game,
        rated: bool,
        coach: Option<chesspi_engine::coach::CoachLevel>,
        clock: Option<crate::app::model::clock::TimeControl>,
        /// Who sits where, as New game chose; `None`: the player at the device.
        sides: Option<crate::storage::Sides>,
    },
    /// Finding a partner for a network game: hosting (as `host`, with `clock`) or, with no
    /// colour, browsing.
    Lobby {
        host: Option<Color>,
        clock: Option<crate::app::model::clock::TimeControl>,
    },
    /// The game goes on where a screen stopped it: its search (the computer's move, the
    /// coach's look) is asked for again, as after any change of the game.
    Resume,
    /// The Settings dialog (over the game, once `Back` closed the screen opened from it).
    Settings,
    /// A message over the game (errors, notices; the lobby's "No network game", once `Back`
    /// closed it).
    Info { title: String, message: String },
    /// This dialog over the screen (the USB stick's files, what to do with a saved game).
    Dialog(Dialog),
    /// The New game form.
    NewGame,
    /// The board turned round.
    Flip,
    /// The position editor on the position shown.
    Editor,
    /// The saved games list.
    SavedGames,
    /// Help.
    Help,
    /// Train.
    Train,
    /// Settings → Wi-Fi.
    Wifi,
    /// The coach looks for what is threatened (Menu → What is threatened?).
    AskThreat,
    /// The network game adjourned, its partner away.
    Adjourn,
    /// The network game's win claimed, its partner away.
    ClaimForfeit,
    /// The saved game being opened is analysed once it is open.
    AnalyseOnOpen,
    /// A draw offered to the computer: its search judges it, on the player's turn.
    DrawOfferToComputer,
    /// An offer to the network partner.
    OfferToPartner(crate::lan::codec::OfferKind),
    /// Drop the analysis of the game on the board (another game takes its place).
    DropAnalysis,
    /// "Analyse" the game on the board.
    Analyse,
    /// "Next mistake" in the analysis.
    NextMistake,
    /// Done with the review: a running analysis stops, a saved game gives the current one
    /// back.
    LeaveReview,
    /// The saved game looked through came from the archive, with its stored analysis if it
    /// has one.
    SavedOpened(Option<AnalysisMarks>),
    /// Store the finished analysis, with the saved game looked through if it is one.
    StoreAnalysis(Box<chesspi_engine::analysis::GameAnalysis>),
    /// Close this screen, if it is the open one.
    Close(ScreenKind),
    /// The board shows the position after move `ply` (a tap on the move list), unless a
    /// promotion waits for its piece, New game is open or a dialog.
    ShowMove(usize),
    /// Show a saved game in place of the current one (put back by then): the board's touches
    /// are forgotten and New game closes.
    ViewSaved(Box<SavedGame>),
    /// The network game: a choice of the player's made on another screen, or its next step
    /// (carried out by [`network::partner::PartnerGame`]).
    Partner(crate::app::session::partner::PartnerStep),
    /// A dialog that wants an answer now (the partner's offer, Shut down?): over the game, the New game
    /// form closes and a promotion waiting for its piece is dropped.
    Interrupt(Dialog),
    /// A dialog that waits its turn (the offer to adjourn): it opens unless the player is
    /// busy (another dialog, the New game form, a promotion, a saved game looked through).
    UnlessBusy(Dialog),
    /// A Wi-Fi report for the lobby, if it is open (the Wi-Fi screen cannot name it).
    LobbyWifi(crate::wifi::worker::WifiReport),
    /// Joining the host at `target` (`HOST:PORT`, the command line's join): with its code,
    /// or the keypad asking for it.
    Join {
        target: String,
        code: Option<String>,
    },
    /// The computer asked (a hint).
    Think(Purpose),
    /// The coach's warning answered: take back, play on, or show me.
    Coach(crate::app::session::coach::CoachAnswer),
    /// Settings → Players: who is at the device.
    Players,
    /// The player (or guest, last) at this place of the Players list plays now.
    ChoosePlayer(usize),
    /// `who` plays now (New game seated them), unless they do already.
    PlayAs(Who),
    /// Settings → Players: the screen where players are added, renamed and removed.
    PlayersScreen,
    /// The players changed on the Players screen: the controller keeps `roster` and the saver
    /// writes it; `removed`'s record and puzzles are deleted.
    KeepPlayers {
        roster: Box<Roster>,
        removed: Option<PlayerId>,
    },
    /// Player `id`'s removal confirmed: the Players screen removes them.
    RemovePlayer(PlayerId),
    /// Openings.
    Openings,
    /// Endgames: the lessons' list.
    Endgames,
}

impl Controller {
    /// Goes where `go` sends the user: a screen's or part's wish once its method returns, or
    /// the shell's (a notice, the power key, the command line's host and join).
    pub fn go(&mut self, go: Go) {
        match go {
            Go::Back => self.screen = Screen::Game,
            Go::AnalysisBoard => {
                let position = *self.session.shown_position();
                self.go(Go::AnalysisBoardAt(position));
            }
            Go::AnalysisBoardAt(position) => {
                self.dialog = None;
                self.parts.play.input.deselect();
                self.parts.play.input.end_press();
                let board = analysis::board::Session::open(position, self.session.flipped);
                self.screen = Screen::AnalysisBoard(Box::new(board));
            }
            Go::Start {
                setup,
                game,
                rated,
                coach,
                clock,
                sides,
            } => {
                self.start(setup, game);
                if let Some(sides) = sides {
                    self.session.set_sides(sides);
                }
                if !rated {
                    self.session
                        .set_unrated(crate::app::session::game::Unrated::SetUp);
                }
                if let Some(coach) = coach {
                    self.session.coach.forget(&self.session.game);
                    self.session.set_coach_level(coach);
                }
                if let Some(control) = clock {
                    self.session
                        .set_clock(Some(crate::app::model::clock::GameClock::new(control)));
                    // The computer playing White starts on its clock.
                    self.session.cancel_thinking();
                    self.after_change();
                }
            }
            Go::Resume => self.after_change(),
            Go::Settings => self.dialog = Some(Dialog::Settings),
            Go::Lobby { host, clock } => {
                self.dialog = None;
                self.run(|screen, cx| *screen = Screen::Lobby(Lobby::open(cx, host, clock)));
            }
            Go::Info { title, message } => self.dialog = Some(Dialog::Info { title, message }),
            Go::Dialog(dialog) => self.dialog = Some(dialog),
            Go::NewGame => {
                self.dialog = None;
                let form = NewGameForm::next(&self.session, self.settings.coach, &self.player);
                self.screen = Screen::NewGame(form);
            }
            Go::Flip => self.play(|p, cx, gate| p.flip(cx, gate)),
            Go::Editor => {
                self.dialog = None;
                self.screen.close(ScreenKind::NewGame);
                self.parts.play.input.deselect();
                self.parts.play.input.end_press();
                let editor = Editor::open(self.session.shown_position());
                self.screen = Screen::Editor(Box::new(editor));
            }
            Go::SavedGames => {
                self.screen = Screen::SavedGames;
                self.session.effect(Effect::ShowGames);
            }
            Go::Help => {
                self.dialog = None;
                self.screen = Screen::Help(help::Help);
            }
            Go::Train => {
                self.dialog = None;
                self.session.cancel_hint();
                let training = train::Training::open(&self.player.puzzles);
                self.screen = Screen::Train(Box::new(training));
            }
            Go::Wifi => {
                self.dialog = None;
                self.session.cancel_hint();
                self.screen = Screen::Wifi(Box::default());
                self.session
                    .effect(Effect::Wifi(crate::wifi::worker::WifiRequest::Scan));
            }
            Go::AskThreat => self.session.ask_threat(self.settings.book),
            Go::Adjourn => self.go(Go::Partner(PartnerStep::Adjourn)),
            Go::ClaimForfeit => self.go(Go::Partner(PartnerStep::ClaimForfeit)),
            Go::AnalyseOnOpen => self.parts.analysis.analyse_on_open(),
            Go::DrawOfferToComputer => {
                if self.session.human_to_move() && !self.session.thinking.is_busy() {
                    self.session.request(Purpose::DrawOffer, self.settings.book);
                }
            }
            Go::OfferToPartner(what) => self.go(Go::Partner(PartnerStep::Offer(what))),
            Go::DropAnalysis => self.part(|a: &mut Analysis, cx| a.discard(cx)),
            Go::Analyse => {
                let saved = self.parts.viewing.is_viewing_saved();
                self.part(|a: &mut Analysis, cx| a.start(cx, saved));
            }
            Go::NextMistake => self.part(|a: &mut Analysis, cx| a.next_mistake(cx)),
            Go::LeaveReview => {
                self.part(|a: &mut Analysis, cx| a.leave_review(cx));
                self.part(|v: &mut Viewing, cx| v.leave_saved(cx));
            }
            Go::SavedOpened(marks) => self.part(|a: &mut Analysis, cx| a.saved_opened(cx, marks)),
            Go::StoreAnalysis(analysis) => self.session.effect(Effect::StoreAnalysis {
                saved: self.parts.viewing.saved_id(),
                analysis,
            }),
            Go::Close(kind) => self.screen.close(kind),
            Go::ShowMove(ply) => {
                if self.parts.play.input.pending_promotion().is_none()
                    && self.screen.new_game().is_none()
                    && self.dialog.is_none()
                {
                    self.parts.play.input.deselect();
                    self.parts.play.input.end_press();
                    self.session.review = Some(ply);
                }
            }
            Go::ViewSaved(saved) => {
                self.parts.play.input.clear();
                self.screen.close(ScreenKind::NewGame);
                self.part(|v: &mut Viewing, cx| v.show_saved(cx, *saved));
            }
            Go::Partner(step) => {
                self.part(|p: &mut network::partner::PartnerGame, cx| p.step(cx, step));
            }
            Go::Interrupt(dialog) => {
                self.screen.close(ScreenKind::NewGame);
                self.parts.play.input.drop_promotion();
                self.dialog = Some(dialog);
            }
            Go::UnlessBusy(dialog) => {
                let busy = self.dialog.is_some()
                    || self.screen.new_game().is_some()
                    || self.parts.play.input.pending_promotion().is_some()
                    || self.parts.viewing.is_viewing_saved();
                if !busy {
                    self.dialog = Some(dialog);
                }
            }
            Go::LobbyWifi(report) => self.on(|l: &mut Lobby, cx| l.wifi_report(cx, report)),
            Go::Join { target, code } => {
                self.dialog = None;
                self.run(|screen, cx| {
                    *screen = Screen::Lobby(Lobby::join(cx, &target, code.as_deref()));
                });
            }
            Go::Think(purpose) => self.session.request(purpose, self.settings.book),
            Go::Coach(CoachAnswer::TakeBack) => {
                if self.session.coach_take_back() {
                    self.after_change();
                }
            }
            Go::Coach(CoachAnswer::PlayOn) => {
                if self.session.coach.play_on() {
                    self.next_turn();
                }
            }
            Go::Coach(CoachAnswer::ShowMe) => self.session.coach.show_me(),
            Go::Players => {
                let player = &self.player;
                let people: Vec<Who> = player.roster().people().collect();
                let names = people.iter().map(|&who| player.name_of(who)).collect();
                // A player removed meanwhile reads as the guest, last.
                let current = people
                    .iter()
                    .position(|&who| who == player.current())
                    .unwrap_or(people.len() - 1);
                self.dialog = Some(Dialog::Players { names, current });
            }
            Go::ChoosePlayer(index) => {
                let who = self.player.roster().people().nth(index);
                if let Some(who) = who {
                    self.go(Go::PlayAs(who));
                }
            }
            Go::PlayAs(who) => {
                if self.player.current() == who {
                    return;
                }
                self.player.set_current(who);
                let name = self.player.name_of(who);
                self.session.effect(Effect::ChoosePlayer {
                    who,
                    roster: Box::new(self.player.roster().clone()),
                    name,
                });
            }
            Go::PlayersScreen => {
                self.dialog = None;
                self.session.cancel_hint();
                let screen =
                    players::PlayersScreen::open(self.player.roster(), self.player.current());
                self.screen = Screen::Players(Box::new(screen));
            }
            Go::KeepPlayers { roster, removed } => {
                self.player.roster_mut().clone_from(&roster);
                self.session.effect(Effect::KeepPlayers { roster, removed });
            }
            Go::RemovePlayer(id) => {
                self.on(|p: &mut players::PlayersScreen, cx| p.remove(cx, id));
            }
            Go::Openings => {
                self.dialog = None;
                self.session.cancel_hint();
                let screen = openings::OpeningsScreen::open(crate::storage::timestamp::unix_now());
                self.screen = Screen::Openings(Box::new(screen));
            }
            Go::Endgames => {
                self.dialog = None;
                self.session.cancel_hint();
                self.screen = Screen::Endgames(Box::default());
            }
        }
    }
}
