//! Turns the controller's plain description of the screen into Slint models, touching only
//! what changed so the software renderer repaints as little as possible.

use crate::app::model::clock::TimeControl;
use crate::app::model::mode::{ModeChoice, NetworkRole, NewGameForm};
use crate::app::screens::board_view::arrow_path;
use crate::app::screens::play::view::GameModels;
use crate::app::screens::{
    Analysis, Controller, Lobby, ScreenKind, analysis, coach, editor, openings, players, train,
    wifi,
};
use crate::app::session::marks::area_path;
use crate::app::ui::{
    AnalysisAdapter, AppWindow, DialogAdapter, GameAdapter, GraphMark, KeypadAdapter, ModeView,
    NewGameAdapter, OptionView, PanelAction, Screen, StatusAdapter,
};
use crate::lan::session::LinkState;
use crate::tr;
use chesspi_engine::analysis::MoveClass;
use slint::{ComponentHandle, ModelRc, SharedString, VecModel};

/// The evaluation graph, its progress and verdict, and the accuracies.
fn refresh_analysis(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<AnalysisAdapter>();
    let Some(a) = c
        .get::<Analysis>()
        .view(c.session())
        .filter(|_| c.session().is_reviewing() || c.session().game().is_over())
    else {
        adapter.set_visible(false);
        adapter.set_accuracy(SharedString::new());
        adapter.set_arrow(SharedString::new());
        return;
    };
    let moves = a.graph.len().saturating_sub(1).max(1) as f32;
    adapter.set_visible(true);
    adapter.set_running(a.progress.is_some());
    adapter.set_progress(a.progress.unwrap_or(1.0));
    adapter.set_white_area(area_path(&a.graph).into());
    adapter.set_current(if a.graph.is_empty() {
        0.0
    } else {
        a.ply as f32 / moves
    });
    let marks: Vec<GraphMark> = a
        .marks
        .iter()
        .map(|&(ply, class)| GraphMark {
            x: ply as f32 / moves,
            y: a.graph.get(ply).copied().unwrap_or(0.0),
            blunder: class == MoveClass::Blunder,
        })
        .collect();
    adapter.set_marks(ModelRc::new(VecModel::from(marks)));
    adapter.set_line(a.line.into());
    adapter.set_accuracy(a.accuracy.into());
    let arrow = a.better.map(|(from, to)| arrow_path(from, to));
    adapter.set_arrow(arrow.unwrap_or_default().into());
}

/// The models the window shows, kept between refreshes so unchanged rows are not touched.
pub struct ViewModels {
    /// The game screen's: the board, the side panel.
    game: GameModels,
}

/// The New game screen's mode tiles, in the language now chosen (again after a switch: the
/// texts come from Rust, which Slint's own translation switch does not reach).
pub fn set_mode_views(window: &AppWindow) {
    let modes: Vec<ModeView> = ModeChoice::ALL
        .iter()
        .map(|m| ModeView {
            id: m.id().into(),
            label: m.label().into(),
            detail: m.detail().into(),
        })
        .collect();
    window
        .global::<NewGameAdapter>()
        .set_modes(ModelRc::new(VecModel::from(modes)));
}

impl ViewModels {
    /// Creates the models and hands them to the window.
    pub fn attach(window: &AppWindow) -> ViewModels {
        set_mode_views(window);
        ViewModels {
            game: GameModels::attach(window),
        }
    }

    /// Whether a tap on the side panel's `action` counts now (see [`crate::app::screens::play::view::REARM`]).
    pub fn action_armed(&self, action: PanelAction) -> bool {
        self.game.action_armed(action)
    }

    /// Shows the controller's state.
    pub fn refresh(&mut self, window: &AppWindow, c: &Controller) {
        window
            .global::<GameAdapter>()
            .set_screen(screen_of(c.screen()));
        self.game.refresh(window, c);
        refresh_analysis(window, c);
        refresh_dialog(window, c);
        refresh_keypad(window, c);
        refresh_network_status(window, c);
        refresh_new_game(window, c);
        editor::view::refresh(window, c);
        analysis::board::view::refresh(window, c);
        coach::view::refresh(window, &coach::view::coach_view(c.session()));
        train::view::refresh(window, c);
        wifi::view::refresh(window, c);
        players::view::refresh(window, c);
        openings::view::refresh(window, c);
        crate::app::screens::endgames::view::refresh(window, c);
    }
}

/// The generic dialog (menu, confirmations, offers, the lobby).
fn refresh_dialog(window: &AppWindow, c: &Controller) {
    let dialog = window.global::<DialogAdapter>();
    // The lobby's steps show as dialogs, under a dialog opened over it.
    let lobby = || c.shown::<Lobby>().and_then(|l| l.view());
    match c.dialog_view().or_else(lobby) {
        Some(d) => {
            dialog.set_title(d.title.into());
            dialog.set_message(d.message.into());
            dialog.set_confirmation(d.confirmation);
            let options: Vec<OptionView> = d
                .options
                .iter()
                .map(|o| OptionView {
                    id: o.id.as_str().into(),
                    label: o.label.as_str().into(),
                    primary: o.primary,
                    danger: o.danger,
                    enabled: o.enabled,
                    name: o.name,
                })
                .collect();
            dialog.set_options(ModelRc::new(VecModel::from(options)));
            dialog.set_visible(true);
        }
        None => dialog.set_visible(false),
    }
}

/// The New game form.
fn refresh_new_game(window: &AppWindow, c: &Controller) {
    let new_game = window.global::<NewGameAdapter>();
    match c.shown::<NewGameForm>() {
        Some(form) => {
            let computer = form.mode == ModeChoice::Computer;
            let demo = form.mode == ModeChoice::Demo;
            let network = form.mode == ModeChoice::Network;
            let hosting = network && form.network == NetworkRole::Host;
            new_game.set_mode(form.mode.id().into());
            new_game.set_show_network(network);
            new_game.set_hosting(hosting);
            new_game.set_show_colour(computer || hosting);
            // In a network game the host decides the clocks.
            new_game.set_show_clock(!network || hosting);
            new_game.set_clock(match form.clock {
                None => -1,
                Some(_) if form.custom_chosen => TimeControl::PRESETS.len() as i32,
                Some(c) => c.preset().map_or(-1, |i| i as i32),
            });
            new_game.set_custom_minutes((form.custom.base.as_secs() / 60) as i32);
            new_game.set_custom_increment(form.custom.increment.as_secs() as i32);
            new_game.set_colour(form.colour.index());
            new_game.set_show_level(computer || demo);
            new_game.set_show_coach(computer || form.mode == ModeChoice::Friend);
            new_game.set_fitting_level(
                c.player()
                    .fitting_level()
                    .filter(|_| computer)
                    .map_or(0, |l| i32::from(l.number())),
            );
            new_game.set_level_fits(form.level_fits);
            let name = |who| c.player().name_of(who);
            let players: Vec<slint::SharedString> = match form.mode {
                ModeChoice::Friend => vec![
                    tr!("White: {}", name(form.players.white)).into(),
                    tr!("Black: {}", name(form.players.black)).into(),
                ],
                ModeChoice::Computer | ModeChoice::Network => vec![name(form.person()).into()],
                ModeChoice::Demo => Vec::new(),
            };
            new_game.set_players(std::rc::Rc::new(slint::VecModel::from(players)).into());
            new_game.set_coach(form.coach.is_on());
            new_game.set_level(i32::from(form.level.number()));
            new_game.set_level_text(
                tr!(
                    "Level {} — plays at about {} Elo{}",
                    form.level.number(),
                    form.level.elo(),
                    level_words(form.level.elo())
                )
                .into(),
            );
            new_game.set_note(
                match form.mode {
                    // Whether the game will count for the rating, before it starts.
                    ModeChoice::Computer => crate::app::screens::words::rating_words(
                        if form.person() == crate::storage::Who::Guest {
                            Some(crate::app::session::game::Unrated::Guest)
                        } else {
                            form.coach
                                .is_on()
                                .then_some(crate::app::session::game::Unrated::Coach)
                                .or(c
                                    .settings()
                                    .assist
                                    .is_on()
                                    .then_some(crate::app::session::game::Unrated::Assist))
                        },
                    ),
                    // Rated for both when two players (not guests) play without the coach.
                    ModeChoice::Friend => match (form.players.white, form.players.black) {
                        (crate::storage::Who::Player(_), crate::storage::Who::Player(_))
                            if !form.coach.is_on() =>
                        {
                            tr!(
                                "Rated: {} against {}, each rating moves.",
                                name(form.players.white),
                                name(form.players.black)
                            )
                        }
                        _ => tr!("Two people share this screen. Rated when two players play \
                             without the coach: tap a name to seat another."),
                    },
                    ModeChoice::Demo => tr!("Sit back and watch. Tap New game to stop."),
                    ModeChoice::Network if hosting => {
                        tr!("Offer a game here: the other ChessPI joins with the code shown.")
                    }
                    ModeChoice::Network => tr!("Join a game offered by a ChessPI nearby."),
                }
                .into(),
            );
            new_game.set_visible(true);
        }
        None => new_game.set_visible(false),
    }
}

fn refresh_keypad(window: &AppWindow, c: &Controller) {
    let keypad = window.global::<KeypadAdapter>();
    match c.shown::<Lobby>().and_then(Lobby::keypad_view) {
        Some(k) => {
            keypad.set_title(k.title.into());
            keypad.set_text(k.text.into());
            keypad.set_message(k.message.into());
            keypad.set_message_alert(k.alert);
            keypad.set_address(k.address);
            keypad.set_can_submit(k.can_submit);
            keypad.set_visible(true);
        }
        None => keypad.set_visible(false),
    }
}

/// The status bar's network cell: shown during a network game.
fn refresh_network_status(window: &AppWindow, c: &Controller) {
    let status = window.global::<StatusAdapter>();
    match c.session().partner() {
        Some(p) => {
            let label = match p.link {
                LinkState::Connected => tr!("● Connected"),
                LinkState::Reconnecting => tr!("○ Reconnecting…"),
                LinkState::Waiting => tr!("○ Waiting"),
                LinkState::Lost => tr!("○ Connection lost"),
                LinkState::Closed => tr!("○ Partner left"),
            };
            status.set_network_label(label.into());
            status.set_network_connected(p.link == LinkState::Connected);
            status.set_network_visible(true);
        }
        None => status.set_network_visible(false),
    }
}

/// A few words about the strength, for people who do not know what Elo means. They follow
/// the level's measured rating (docs/BENCHMARKS.md, "Levels"), not its number.
fn level_words(elo: u32) -> String {
    match elo {
        ..1200 => tr!(" (beginner)"),
        1200..1600 => tr!(" (casual player)"),
        1600..2000 => tr!(" (club player)"),
        2000..2300 => tr!(" (strong club player)"),
        2300..2600 => tr!(" (master)"),
        _ => tr!(" (grandmaster)"),
    }
}

/// The controller's open screen as the window's `Screen`.
fn screen_of(kind: ScreenKind) -> Screen {
    match kind {
        ScreenKind::Game => Screen::Game,
        ScreenKind::NewGame => Screen::NewGame,
        ScreenKind::Lobby => Screen::Lobby,
        ScreenKind::Editor => Screen::Editor,
        ScreenKind::AnalysisBoard => Screen::AnalysisBoard,
        ScreenKind::SavedGames => Screen::SavedGames,
        ScreenKind::Help => Screen::Help,
        ScreenKind::Train => Screen::Train,
        ScreenKind::Wifi => Screen::Wifi,
        ScreenKind::Players => Screen::Players,
        ScreenKind::Openings => Screen::Openings,
        ScreenKind::Endgames => Screen::Endgames,
    }
}

#[cfg(test)]
mod tests {
    use super::level_words;
    use chesspi_engine::level::Level;

    #[test]
    fn the_words_follow_the_measured_elo() {
        assert_eq!(level_words(880), " (beginner)");
        assert_eq!(level_words(1200), " (casual player)");
        assert_eq!(level_words(2299), " (strong club player)");
        assert_eq!(level_words(2300), " (master)");
        assert_eq!(level_words(3310), " (grandmaster)");
        // Level 1 stays a beginner's level and full strength reads as the strongest words.
        assert_eq!(level_words(Level::MIN.elo()), " (beginner)");
        assert_eq!(level_words(Level::MAX.elo()), " (grandmaster)");
    }
}
