//! MultiPV: the best `k` lines of a position (UCI `MultiPV`, and analysis).
//!
//! Built on the ordinary search by excluding root moves: at each depth the position is
//! searched `k` times, each time without the first moves of the lines already found (through
//! `searchmoves`), so line `i` is the best line whose first move differs from those of lines
//! `1..i`. The depths advance together, so every printed set of lines is of one depth, as
//! GUIs expect. This costs about `k` searches, which is what MultiPV costs in any engine
//! that does not share the work; the transposition table makes repeated depths cheap.
//!
//! The search itself stays single-line (and `bench` untouched); levels with deliberate
//! imprecision (`weakness`) choose among all moves themselves, so with them the lines are
//! not split.

use crate::moves::Move;
use crate::position::Position;
use crate::search::{MAX_PLY, Score, SearchInfo, SearchLimits, SearchResult, Searcher};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// Most lines UCI's `MultiPV` option offers.
pub const MAX_LINES: usize = 16;

/// A sort key for scores: higher is better for the side to move (mates beat everything,
/// a nearer mate beats a farther one; being mated is worst, sooner worse).
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// Searches `root` for its best `lines` lines (at most [`MAX_LINES`], at most the number of
/// root moves allowed by `limits.searchmoves`) within `limits`, which bound the whole run:
/// nodes and time are shared by all lines. After each completed depth, `info(k, line)` is
/// called for k = 1..=lines, best first. Returns the best line's result (its move is the one
/// to play); with one line this is exactly [`Searcher::search`].
pub fn search_lines(
    searcher: &mut Searcher,
    root: &Position,
    history: &[u64],
    limits: &SearchLimits,
    lines: usize,
    stop: &AtomicBool,
    info: &mut dyn FnMut(usize, &SearchInfo),
) -> SearchResult {
    let candidates: Vec<Move> = root
        .legal_moves()
        .iter()
        .copied()
        .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv))
        .collect();
    let lines = lines.clamp(1, MAX_LINES).min(candidates.len());
    if lines <= 1 || limits.weakness.is_some() {
        return searcher.search(root, history, limits, stop, &mut |i| info(1, i));
    }
    let start = Instant::now();
    let hard = limits.movetime.or(limits.hard_time);
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, 100);
    let mut nodes = 0u64;
    let mut best: Option<SearchResult> = None;
    // The first line of the depth under way, complete or not: the move to play if no depth
    // completes at all.
    let mut partial: Option<SearchResult> = None;
    'deepen: for depth in 1..=max_depth {
        let mut found: Vec<(SearchResult, SearchInfo)> = Vec::with_capacity(lines);
        for _ in 0..lines {
            let time_left = match hard {
                Some(h) => match h.checked_sub(start.elapsed()) {
                    Some(t) if t > Duration::ZERO => Some(t),
                    _ => break 'deepen,
                },
                None => None,
            };
            let nodes_left = match limits.nodes {
                Some(n) if nodes >= n => break 'deepen,
                Some(n) => Some(n - nodes),
                None => None,
            };
            let sub = SearchLimits {
                depth: Some(depth),
                nodes: nodes_left,
                movetime: time_left,
                soft_time: None,
                hard_time: None,
                mate: None,
                infinite: false,
                searchmoves: candidates
                    .iter()
                    .copied()
                    .filter(|mv| !found.iter().any(|(r, _)| r.best_move == Some(*mv)))
                    .collect(),
                // No weakness (see the module comment), and whatever else the defaults say.
                ..SearchLimits::default()
            };
            let mut last = None;
            let result =
                searcher.search(root, history, &sub, stop, &mut |i| last = Some(i.clone()));
            nodes += result.nodes;
            if found.is_empty() {
                partial = Some(result.clone());
            }
            match last {
                // Only a line searched to this depth is a line of this depth.
                Some(line) if result.depth >= depth && line.depth >= depth => {
                    found.push((result, line));
                }
                _ => break 'deepen,
            }
        }
        found.sort_by_key(|(_, line)| Reverse(rank(line.score)));
        let elapsed = start.elapsed();
        for (k, (_, line)) in found.iter_mut().enumerate() {
            line.nodes = nodes;
            line.time = elapsed;
            info(k + 1, line);
        }
        let (top, top_info) = found.swap_remove(0);
        best = Some(SearchResult {
            score: top_info.score,
            depth,
            ..top
        });
        if let (Some(mate), Score::Mate(n)) = (limits.mate, top_info.score)
            && n > 0
            && n <= mate as i32
        {
            break;
        }
        let soft_passed = limits.soft_time.is_some_and(|soft| start.elapsed() >= soft);
        if stop.load(AtomicOrdering::Relaxed) || (soft_passed && !limits.infinite) {
            break;
        }
    }
    let mut result = best.or(partial).unwrap_or_else(|| SearchResult {
        best_move: candidates.first().copied(),
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
    });
    result.nodes = nodes;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(fen: &str, limits: &SearchLimits, k: usize) -> (Vec<SearchInfo>, SearchResult) {
        let pos = Position::from_fen(fen).unwrap();
        let mut searcher = Searcher::new(1);
        let mut last: Vec<SearchInfo> = Vec::new();
        let mut current: Vec<SearchInfo> = Vec::new();
        let stop = AtomicBool::new(false);
        let result = search_lines(
            &mut searcher,
            &pos,
            &[],
            limits,
            k,
            &stop,
            &mut |i, info| {
                if i == 1 {
                    last = std::mem::take(&mut current);
                }
                assert_eq!(i, current.len() + 1, "lines come in order 1..k");
                current.push(info.clone());
            },
        );
        if current.len() >= last.len() {
            last = current;
        }
        (last, result)
    }

    /// Three hanging black pieces, each taken by a different pawn: queen, rook, knight.
    const HANGING: &str = "7k/8/8/8/q2n2r1/1P2P2P/8/4K3 w - - 0 1";

    #[test]
    fn lines_are_distinct_and_ranked() {
        let limits = SearchLimits {
            depth: Some(6),
            ..SearchLimits::default()
        };
        let (lines, result) = lines_of(HANGING, &limits, 3);
        assert_eq!(lines.len(), 3);
        let firsts: Vec<String> = lines.iter().map(|l| l.pv[0].to_string()).collect();
        assert_eq!(firsts, ["b3a4", "h3g4", "e3d4"]);
        assert!(lines.iter().all(|l| l.depth == 6));
        assert!(rank(lines[0].score) >= rank(lines[1].score));
        assert!(rank(lines[1].score) >= rank(lines[2].score));
        assert_eq!(result.best_move, Some(lines[0].pv[0]));
        assert_eq!(result.depth, 6);
    }

    #[test]
    fn a_mate_comes_first_and_lines_are_capped_by_the_moves() {
        // Back-rank mate Ra8#; only a few legal moves for White after restricting them.
        let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let searchmoves: Vec<Move> = ["a1a8", "a1a2"]
            .iter()
            .map(|m| pos.parse_uci_move(m).unwrap())
            .collect();
        let limits = SearchLimits {
            depth: Some(4),
            searchmoves,
            ..SearchLimits::default()
        };
        let (lines, result) = lines_of(fen, &limits, 16);
        assert_eq!(lines.len(), 2, "only the two allowed moves");
        assert_eq!(lines[0].score, Score::Mate(1));
        assert_eq!(lines[1].pv[0].to_string(), "a1a2");
        assert_eq!(
            result.best_move.map(|m| m.to_string()).as_deref(),
            Some("a1a8")
        );
    }

    #[test]
    fn one_line_is_the_plain_search_and_budgets_are_shared() {
        let limits = SearchLimits {
            depth: Some(5),
            ..SearchLimits::default()
        };
        let pos = Position::from_fen(HANGING).unwrap();
        let stop = AtomicBool::new(false);
        let plain = Searcher::new(1).search(&pos, &[], &limits, &stop, &mut |_| {});
        let (_, single) = lines_of(HANGING, &limits, 1);
        assert_eq!(single.best_move, plain.best_move);
        assert_eq!(single.nodes, plain.nodes);

        let budget = SearchLimits {
            nodes: Some(20_000),
            ..SearchLimits::default()
        };
        let (lines, result) = lines_of(HANGING, &budget, 4);
        // The search looks at its budget every 1024 nodes, once per line.
        assert!(result.nodes <= 20_000 + 4 * 1024, "{} nodes", result.nodes);
        assert_eq!(lines.len(), 4);
        assert!(result.best_move.is_some());

        // Stopped before it starts: still a legal move.
        let stop = AtomicBool::new(true);
        let mut searcher = Searcher::new(1);
        let r = search_lines(
            &mut searcher,
            &pos,
            &[],
            &SearchLimits::default(),
            3,
            &stop,
            &mut |_, _| {},
        );
        assert!(r.best_move.is_some_and(|m| pos.is_legal(m)));
    }
}
