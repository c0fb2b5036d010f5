//! The autosave file's text: the game written as TOML and sealed, and read back with every
//! check (the form on disk is the `Raw*` types; the app's are in the parent module).

use super::*;

/// The autosave text of `game` with this sequence number.
pub fn encode(game: &SavedGame, sequence: u64) -> String {
    let raw = RawAutosave {
        format: FORMAT_NAME.to_string(),
        version: AUTOSAVE_VERSION,
        sequence,
        id: format!("{:016x}", game.id),
        started_unix: game.started_unix,
        start_fen: game.game.initial_position().to_fen(),
        moves: game.game.moves().iter().map(ToString::to_string).collect(),
        mode: RawMode::from(&game.mode),
        outcome: game.game.outcome().map(|o| RawOutcome {
            winner: color_name(o.winner).to_string(),
            termination: termination_key(o.termination).to_string(),
        }),
        clocks: game.clocks.as_ref().map(|c| RawClocks {
            white_ms: duration_ms(c.white),
            black_ms: duration_ms(c.black),
            increment_ms: duration_ms(c.increment),
            base_ms: duration_ms(c.base),
            after_moves_ms: c.after_moves.iter().map(|&d| duration_ms(d)).collect(),
        }),
        flipped: game.flipped,
        unrated: !game.rated,
        coach: game.coach.is_on().then(|| game.coach.code().to_string()),
        players: [Color::White, Color::Black]
            .into_iter()
            .filter_map(|c| {
                game.seats.get(c).map(|seat| RawSeat {
                    side: color_name(Some(c)).to_string(),
                    player: seat.who.code(),
                    name: seat.name.clone(),
                })
            })
            .collect(),
    };
    // Serializing plain strings and numbers cannot fail; fall back to an empty body (which
    // loads as a checksum-valid but malformed file) rather than panic.
    let body = toml::to_string(&raw).unwrap_or_default();
    seal(&format!(
        "# ChessPI game in progress. Written after every move; do not edit.\n{body}"
    ))
}

/// Reads autosave text back into a checked game and its sequence number.
///
/// # Errors
/// Every way the text can be wrong, as an [`AutosaveError`].
pub fn decode(bytes: &[u8]) -> Result<(SavedGame, u64), AutosaveError> {
    if bytes.is_empty() {
        return Err(AutosaveError::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| AutosaveError::NotText)?;
    let body = unseal(text).ok_or(AutosaveError::Checksum)?;

    // Read format and version first, so a newer file is reported as such rather than as
    // unknown keys.
    let header: RawHeader =
        toml::from_str(body).map_err(|e| AutosaveError::Syntax(e.message().to_string()))?;
    if header.format.as_deref() != Some(FORMAT_NAME) {
        return Err(AutosaveError::WrongFormat(
            header.format.unwrap_or_default(),
        ));
    }
    match header.version {
        Some(AUTOSAVE_VERSION) => {}
        Some(v) => return Err(AutosaveError::UnsupportedVersion(v)),
        None => {
            return Err(AutosaveError::Syntax("missing key `version`".to_string()));
        }
    }
    let raw: RawAutosave = toml::from_str(body)
        .map_err(|e| AutosaveError::Syntax(e.message().trim_end().to_string()))?;
    let sequence = raw.sequence;
    Ok((raw.into_saved_game()?, sequence))
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `"white"`, `"black"` or `"none"` (a draw).
pub(crate) fn color_name(color: Option<Color>) -> &'static str {
    match color {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "none",
    }
}

fn parse_color(key: &'static str, text: &str) -> Result<Color, AutosaveError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(AutosaveError::BadValue {
            key,
            message: format!("expected \"white\" or \"black\", got \"{text}\""),
        }),
    }
}

fn parse_level(key: &'static str, n: Option<u8>) -> Result<Level, AutosaveError> {
    let n = n.ok_or(AutosaveError::BadValue {
        key,
        message: "missing".to_string(),
    })?;
    Level::new(n).ok_or(AutosaveError::BadValue {
        key,
        message: format!("must be 1..=10, got {n}"),
    })
}

/// Every termination, for mapping names back.
pub(crate) const TERMINATIONS: [Termination; 11] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::Resignation,
    Termination::Agreement,
    Termination::ThreefoldRepetition,
    Termination::FivefoldRepetition,
    Termination::FiftyMoves,
    Termination::SeventyFiveMoves,
    Termination::InsufficientMaterial,
    Termination::Time,
    Termination::Abandonment,
];

/// A stable key for a termination (the engine's descriptions are for people and may change).
pub(crate) fn termination_key(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::Resignation => "resignation",
        Termination::Agreement => "agreement",
        Termination::ThreefoldRepetition => "threefold-repetition",
        Termination::FivefoldRepetition => "fivefold-repetition",
        Termination::FiftyMoves => "fifty-moves",
        Termination::SeventyFiveMoves => "seventy-five-moves",
        Termination::InsufficientMaterial => "insufficient-material",
        Termination::Time => "time",
        Termination::Abandonment => "abandonment",
    }
}

/// Terminations the rules impose by themselves (as opposed to a player's decision or claim).
fn is_automatic(t: Termination) -> bool {
    matches!(
        t,
        Termination::Checkmate
            | Termination::Stalemate
            | Termination::FivefoldRepetition
            | Termination::SeventyFiveMoves
            | Termination::InsufficientMaterial
    )
}

/// The first lines of the file, read before anything else.
#[derive(Deserialize)]
struct RawHeader {
    format: Option<String>,
    version: Option<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAutosave {
    format: String,
    version: u32,
    sequence: u64,
    id: String,
    started_unix: u64,
    start_fen: String,
    moves: Vec<String>,
    mode: RawMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<RawOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clocks: Option<RawClocks>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    flipped: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    unrated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coach: Option<String>,
    /// The players at the sides; a save from before players has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    players: Vec<RawSeat>,
}

/// One side's player: `side` is `white` or `black`, `player` a [`Who::code`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSeat {
    side: String,
    player: String,
    name: String,
}

/// The mode as a flat table: `kind` says which other keys apply.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawMode {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    human: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    white_level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    local: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    peer: Option<String>,
    /// LAN: the protocol's game id, to resume it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_game: Option<String>,
    /// LAN: `host` or `guest`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_role: Option<String>,
    /// LAN, guest: the host's `HOST:PORT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_host: Option<String>,
    /// LAN: the partner's rating before the game, `RATING DEVIATION` ([`PeerRating`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_rating: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome {
    winner: String,
    termination: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClocks {
    white_ms: u64,
    black_ms: u64,
    #[serde(default)]
    base_ms: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    after_moves_ms: Vec<u64>,
    increment_ms: u64,
}

impl From<&GameMode> for RawMode {
    fn from(mode: &GameMode) -> RawMode {
        match mode {
            GameMode::VsComputer { human, level } => RawMode {
                kind: "vs-computer".to_string(),
                human: Some(color_name(Some(*human)).to_string()),
                level: Some(level.number()),
                ..RawMode::default()
            },
            GameMode::TwoPlayers => RawMode {
                kind: "two-players".to_string(),
                ..RawMode::default()
            },
            GameMode::ComputerVsComputer { white, black } => RawMode {
                kind: "computer-vs-computer".to_string(),
                white_level: Some(white.number()),
                black_level: Some(black.number()),
                ..RawMode::default()
            },
            GameMode::Lan { local, peer, link } => RawMode {
                kind: "lan".to_string(),
                local: Some(color_name(Some(*local)).to_string()),
                peer: Some(peer.clone()),
                lan_game: link.as_ref().map(|l| l.game_id.clone()),
                lan_role: link
                    .as_ref()
                    .map(|l| if l.host.is_some() { "guest" } else { "host" }.to_string()),
                lan_host: link.as_ref().and_then(|l| l.host.clone()),
                lan_rating: link
                    .as_ref()
                    .and_then(|l| l.peer_rating)
                    .map(|r| r.to_string()),
                ..RawMode::default()
            },
        }
    }
}

impl RawMode {
    fn into_mode(self) -> Result<GameMode, AutosaveError> {
        let missing = |key| AutosaveError::BadValue {
            key,
            message: "missing".to_string(),
        };
        // A rating only rates the game: one that does not read leaves it unrated, not lost.
        let peer_rating = self.lan_rating.as_deref().and_then(|text| {
            let rating = PeerRating::parse(text);
            if rating.is_none() {
                log::warn!("autosave: partner rating \"{text}\" dropped; the game is unrated");
            }
            rating
        });
        let mode = match self.kind.as_str() {
            "vs-computer" => GameMode::VsComputer {
                human: parse_color("mode.human", &self.human.ok_or(missing("mode.human"))?)?,
                level: parse_level("mode.level", self.level)?,
            },
            "two-players" => GameMode::TwoPlayers,
            "computer-vs-computer" => GameMode::ComputerVsComputer {
                white: parse_level("mode.white_level", self.white_level)?,
                black: parse_level("mode.black_level", self.black_level)?,
            },
            "lan" => GameMode::Lan {
                local: parse_color("mode.local", &self.local.ok_or(missing("mode.local"))?)?,
                peer: self.peer.ok_or(missing("mode.peer"))?,
                link: match (self.lan_game, self.lan_role.as_deref(), self.lan_host) {
                    (None, None, None) => None,
                    (Some(game_id), Some("host"), None) => Some(LanLink {
                        game_id,
                        host: None,
                        peer_rating,
                    }),
                    (Some(game_id), Some("guest"), Some(host)) => Some(LanLink {
                        game_id,
                        host: Some(host),
                        peer_rating,
                    }),
                    _ => {
                        return Err(AutosaveError::BadValue {
                            key: "mode.lan_role",
                            message: "needs lan_game, and lan_host exactly for a guest".to_string(),
                        });
                    }
                },
            },
            other => {
                return Err(AutosaveError::BadValue {
                    key: "mode.kind",
                    message: format!(
                        "unknown mode \"{other}\" (expected vs-computer, two-players, \
                         computer-vs-computer or lan)"
                    ),
                });
            }
        };
        Ok(mode)
    }
}

impl RawOutcome {
    fn into_outcome(self) -> Result<Outcome, AutosaveError> {
        let winner = match self.winner.as_str() {
            "none" => None,
            w => Some(
                parse_color("outcome.winner", w).map_err(|_| AutosaveError::BadValue {
                    key: "outcome.winner",
                    message: format!("expected \"white\", \"black\" or \"none\", got \"{w}\""),
                })?,
            ),
        };
        let termination = TERMINATIONS
            .into_iter()
            .find(|t| termination_key(*t) == self.termination)
            .ok_or_else(|| AutosaveError::BadValue {
                key: "outcome.termination",
                message: format!("unknown termination \"{}\"", self.termination),
            })?;
        Ok(Outcome {
            winner,
            termination,
        })
    }
}

impl RawAutosave {
    fn into_saved_game(self) -> Result<SavedGame, AutosaveError> {
        let id = u64::from_str_radix(&self.id, 16).map_err(|_| AutosaveError::BadValue {
            key: "id",
            message: format!("expected hexadecimal digits, got \"{}\"", self.id),
        })?;
        let mode = self.mode.into_mode()?;
        let start = Position::from_fen(&self.start_fen).map_err(AutosaveError::BadStartPosition)?;
        let mut game = Game::from_position(start);
        for (i, text) in self.moves.iter().enumerate() {
            let illegal = |message: String| AutosaveError::IllegalMove {
                ply: i + 1,
                text: text.clone(),
                message,
            };
            let mv = game
                .position()
                .parse_uci_move(text)
                .map_err(|e| illegal(e.to_string()))?;
            game.play(mv).map_err(|e| illegal(e.to_string()))?;
        }
        if let Some(raw) = self.outcome {
            let saved = raw.into_outcome()?;
            restore_outcome(&mut game, saved)?;
        }
        let clocks = self.clocks.map(|c| Clocks {
            white: Duration::from_millis(c.white_ms),
            black: Duration::from_millis(c.black_ms),
            increment: Duration::from_millis(c.increment_ms),
            // Older saves did not keep the start time: the larger clock is the best guess.
            base: Duration::from_millis(if c.base_ms > 0 {
                c.base_ms
            } else {
                c.white_ms.max(c.black_ms)
            }),
            after_moves: c
                .after_moves_ms
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
        });
        let coach = match self.coach.as_deref() {
            None => CoachLevel::Off,
            Some(code) => CoachLevel::from_code(code).ok_or_else(|| AutosaveError::BadValue {
                key: "coach",
                message: format!("{code:?} is not off, blunders or mistakes"),
            })?,
        };
        let mut seats = Seats::none();
        for raw in self.players {
            let bad = |message: String| AutosaveError::BadValue {
                key: "players",
                message,
            };
            let side = match raw.side.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                other => return Err(bad(format!("side {other:?}"))),
            };
            let who = Who::from_code(&raw.player)
                .ok_or_else(|| bad(format!("player {:?}", raw.player)))?;
            let name = crate::text::shown(&raw.name, MAX_NAME_CHARS);
            seats.set(side, Some(Seat { who, name }));
        }
        Ok(SavedGame {
            id,
            started_unix: self.started_unix,
            mode,
            game,
            clocks,
            flipped: self.flipped,
            rated: !self.unrated,
            coach,
            seats,
        })
    }
}

/// Puts a saved outcome back on a replayed game, refusing one the position contradicts.
fn restore_outcome(game: &mut Game, saved: Outcome) -> Result<(), AutosaveError> {
    match game.outcome() {
        Some(by_rules) if by_rules == saved => Ok(()),
        Some(by_rules) => Err(AutosaveError::OutcomeMismatch(format!(
            "saved \"{saved}\" but the position gives \"{by_rules}\""
        ))),
        None if is_automatic(saved.termination) => Err(AutosaveError::OutcomeMismatch(format!(
            "saved \"{saved}\" but the position does not end the game"
        ))),
        None if saved.termination == Termination::Resignation && saved.winner.is_none() => Err(
            AutosaveError::OutcomeMismatch("a resignation without a winner".to_string()),
        ),
        None => game
            .set_outcome(saved)
            .map(|_| ())
            .map_err(|e| AutosaveError::OutcomeMismatch(e.to_string())),
    }
}
