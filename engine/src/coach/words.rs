//! A judgement in words, in English and German, as a coach says it: the pieces by name, the
//! squares, and moves in the language's own piece letters.

use super::{Judgement, Reason};
use crate::analysis::{Eval, MoveClass};
use crate::san::to_german;
use crate::types::{Color, Role, Square};

/// The languages the coach speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    German,
}

/// The coach's sentence about the move: what is wrong with it, or that it is good.
pub fn sentence(judgement: &Judgement, language: Language) -> String {
    match language {
        Language::English => english(judgement),
        Language::German => german(judgement),
    }
}

/// Why the better move is better ("Show me"): where each move leaves the player.
pub fn better_move(judgement: &Judgement, language: Language) -> String {
    let mover = judgement.mover();
    let san = crate::san::to_san(&judgement.position, judgement.best);
    let (with_best, with_played) = (
        Standing::of(judgement.before, mover),
        Standing::of(judgement.after, mover),
    );
    match language {
        Language::English => format!(
            "{san} was better: with it you {}; after your move you {}.",
            with_best.english(),
            with_played.english()
        ),
        Language::German => format!(
            "Besser war {}: damit {}; nach deinem Zug {}.",
            to_german(&san),
            with_best.german(),
            with_played.german()
        ),
    }
}

/// Where an evaluation leaves a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    Mates,
    Winning,
    Better,
    Equal,
    Worse,
    Losing,
    Mated,
}

impl Standing {
    fn of(eval: Eval, side: Color) -> Standing {
        match eval.mate_for(side) {
            Some(n) if n > 0 => return Standing::Mates,
            Some(_) => return Standing::Mated,
            None => {}
        }
        match eval.win_percent(side) {
            w if w >= 85.0 => Standing::Winning,
            w if w >= 62.0 => Standing::Better,
            w if w > 38.0 => Standing::Equal,
            w if w > 15.0 => Standing::Worse,
            _ => Standing::Losing,
        }
    }

    fn english(self) -> &'static str {
        match self {
            Standing::Mates => "mate",
            Standing::Winning => "are winning",
            Standing::Better => "are better",
            Standing::Equal => "are about equal",
            Standing::Worse => "are worse",
            Standing::Losing => "are losing",
            Standing::Mated => "get mated",
        }
    }

    fn german(self) -> &'static str {
        match self {
            Standing::Mates => "setzt du matt",
            Standing::Winning => "stehst du auf Gewinn",
            Standing::Better => "stehst du besser",
            Standing::Equal => "steht es etwa ausgeglichen",
            Standing::Worse => "stehst du schlechter",
            Standing::Losing => "stehst du auf Verlust",
            Standing::Mated => "wirst du mattgesetzt",
        }
    }
}

pub(super) fn piece_en(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// German nouns with the forms the sentences need.
pub(super) struct Noun {
    noun: &'static str,
    /// Accusative singular (der Bauer → den Bauern).
    accusative: &'static str,
    feminine: bool,
}

pub(super) fn piece_de(role: Role) -> Noun {
    let (noun, accusative, feminine) = match role {
        Role::Pawn => ("Bauer", "Bauern", false),
        Role::Knight => ("Springer", "Springer", false),
        Role::Bishop => ("Läufer", "Läufer", false),
        Role::Rook => ("Turm", "Turm", false),
        Role::Queen => ("Dame", "Dame", true),
        Role::King => ("König", "König", false),
    };
    Noun {
        noun,
        accusative,
        feminine,
    }
}

impl Noun {
    /// "dein Läufer", "deine Dame".
    fn yours(&self) -> String {
        format!(
            "{} {}",
            if self.feminine { "deine" } else { "dein" },
            self.noun
        )
    }

    /// "deinen Läufer", "deine Dame".
    pub(super) fn yours_accusative(&self) -> String {
        format!(
            "{} {}",
            if self.feminine { "deine" } else { "deinen" },
            self.accusative
        )
    }

    /// "der Springer", "die Dame".
    fn the(&self) -> String {
        format!(
            "{} {}",
            if self.feminine { "die" } else { "der" },
            self.noun
        )
    }

    /// "den Springer", "die Dame".
    fn the_accusative(&self) -> String {
        format!(
            "{} {}",
            if self.feminine { "die" } else { "den" },
            self.accusative
        )
    }

    /// "ihn", "sie".
    fn it(&self) -> &'static str {
        if self.feminine { "sie" } else { "ihn" }
    }
}

fn plain_verdict_en(verdict: MoveClass) -> &'static str {
    match verdict {
        MoveClass::Best => "The best move.",
        MoveClass::Good => "A good move.",
        MoveClass::Inaccuracy => "An inaccuracy.",
        MoveClass::Mistake => "A mistake.",
        MoveClass::Blunder => "A blunder.",
    }
}

fn plain_verdict_de(verdict: MoveClass) -> &'static str {
    match verdict {
        MoveClass::Best => "Der beste Zug.",
        MoveClass::Good => "Ein guter Zug.",
        MoveClass::Inaccuracy => "Eine Ungenauigkeit.",
        MoveClass::Mistake => "Ein Fehler.",
        MoveClass::Blunder => "Ein grober Fehler.",
    }
}

const WINNING_EN: &str = "though you were winning";
const WINNING_DE: &str = "obwohl du auf Gewinn standest";

fn english(judgement: &Judgement) -> String {
    let on = |role: Role, square: Square| format!("{} on {square}", piece_en(role));
    match &judgement.reason {
        Reason::Hangs { piece, taker } => format!(
            "This leaves your {} hanging: the {} takes it.",
            on(piece.role, piece.square),
            on(taker.role, taker.square)
        ),
        Reason::Mate { moves: 1, san, .. } => format!("This allows mate in one: {san}."),
        Reason::Mate { moves, san, .. } => {
            format!("This allows mate in {moves}, starting with {san}.")
        }
        Reason::Fork { san, targets, .. } => format!(
            "This allows a fork: {san} attacks your {} and your {}.",
            on(targets[0].role, targets[0].square),
            on(targets[1].role, targets[1].square)
        ),
        Reason::Pin {
            san, front, back, ..
        } => format!(
            "This allows a pin: {san} pins your {} to your {}, and you lose material.",
            on(front.role, front.square),
            on(back.role, back.square)
        ),
        Reason::Skewer {
            san, front, back, ..
        } => format!(
            "This allows a skewer: {san} attacks your {} and, behind it, your {}, and you lose \
             material.",
            on(front.role, front.square),
            on(back.role, back.square)
        ),
        Reason::Exchange { at, net: 1 } => format!("This loses a pawn in the exchange on {at}."),
        Reason::Exchange { at, net } => {
            format!("This loses material in the exchange on {at}: {net} pawns' worth in all.")
        }
        Reason::MissedMate { moves: 1, san, .. } => format!("You had mate in one: {san}."),
        Reason::MissedMate { moves, san, .. } => {
            format!("You had mate in {moves}, starting with {san}.")
        }
        Reason::MissedWin { san, wins, .. } => {
            format!("{san} would have won the {}.", on(wins.role, wins.square))
        }
        Reason::Stalemate => format!("This is stalemate: a draw, {WINNING_EN}."),
        Reason::Draw(super::DrawKind::Repetition) => {
            format!("This lets the position repeat a third time: a draw, {WINNING_EN}.")
        }
        Reason::Draw(super::DrawKind::FiftyMoves) => {
            format!("This allows a draw by the fifty-move rule, {WINNING_EN}.")
        }
        Reason::Draw(super::DrawKind::Material) => {
            format!("This leaves too little material to mate: a draw, {WINNING_EN}.")
        }
        Reason::BetterMove { san, .. } => format!("A better move was {san}."),
        Reason::None => plain_verdict_en(judgement.verdict).to_string(),
    }
}

fn german(judgement: &Judgement) -> String {
    let on = |text: String, square: Square| format!("{text} auf {square}");
    match &judgement.reason {
        Reason::Hangs { piece, taker } => {
            let (p, t) = (piece_de(piece.role), piece_de(taker.role));
            format!(
                "Damit hängt {}: {} schlägt {}.",
                on(p.yours(), piece.square),
                on(t.the(), taker.square),
                p.it()
            )
        }
        Reason::Mate { moves: 1, san, .. } => {
            format!("Damit erlaubst du Matt in einem Zug: {}.", to_german(san))
        }
        Reason::Mate { moves, san, .. } => format!(
            "Damit erlaubst du Matt in {moves} Zügen, beginnend mit {}.",
            to_german(san)
        ),
        Reason::Fork { san, targets, .. } => format!(
            "Damit erlaubst du eine Gabel: {} greift {} und {} an.",
            to_german(san),
            on(
                piece_de(targets[0].role).yours_accusative(),
                targets[0].square
            ),
            on(
                piece_de(targets[1].role).yours_accusative(),
                targets[1].square
            )
        ),
        Reason::Pin {
            san, front, back, ..
        } => format!(
            "Damit erlaubst du eine Fesselung: {} fesselt {} an {}, und du verlierst Material.",
            to_german(san),
            on(piece_de(front.role).yours_accusative(), front.square),
            on(piece_de(back.role).yours_accusative(), back.square)
        ),
        Reason::Skewer {
            san, front, back, ..
        } => format!(
            "Damit erlaubst du einen Spieß: {} greift {} an und dahinter {}, und du verlierst \
             Material.",
            to_german(san),
            on(piece_de(front.role).yours_accusative(), front.square),
            on(piece_de(back.role).yours_accusative(), back.square)
        ),
        Reason::Exchange { at, net: 1 } => {
            format!("Damit verlierst du beim Abtausch auf {at} einen Bauern.")
        }
        Reason::Exchange { at, net } => format!(
            "Damit verlierst du beim Abtausch auf {at} Material: insgesamt {net} Bauerneinheiten."
        ),
        Reason::MissedMate { moves: 1, san, .. } => {
            format!("Du hattest Matt in einem Zug: {}.", to_german(san))
        }
        Reason::MissedMate { moves, san, .. } => format!(
            "Du hattest Matt in {moves} Zügen, beginnend mit {}.",
            to_german(san)
        ),
        Reason::MissedWin { san, wins, .. } => format!(
            "{} hätte {} gewonnen.",
            to_german(san),
            on(piece_de(wins.role).the_accusative(), wins.square)
        ),
        Reason::Stalemate => format!("Das ist Patt: Remis, {WINNING_DE}."),
        Reason::Draw(super::DrawKind::Repetition) => format!(
            "Damit kann sich die Stellung zum dritten Mal wiederholen: Remis, {WINNING_DE}."
        ),
        Reason::Draw(super::DrawKind::FiftyMoves) => {
            format!("Damit ist Remis nach der 50-Züge-Regel möglich, {WINNING_DE}.")
        }
        Reason::Draw(super::DrawKind::Material) => {
            format!("Damit bleibt zu wenig Material zum Mattsetzen: Remis, {WINNING_DE}.")
        }
        Reason::BetterMove { san, .. } => format!("Besser war {}.", to_german(san)),
        Reason::None => plain_verdict_de(judgement.verdict).to_string(),
    }
}
