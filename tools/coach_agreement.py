#!/usr/bin/env python3
"""How well `chesspi-engine explain` (the move coach) judges moves, by Stockfish.

1. Classes every move of the agreement games that ChessPI did not play (Glaurung, Stockfish
   at Skill Level 4, Toga II: docs/benchmarks/agreement/*/games.pgn) with Stockfish's
   depth-18 verdicts kept beside them (reference.json) and the model of
   tools/analysis_agreement.py (lichess's win-probability formula, 5/10/15 point thresholds,
   mate rules, Stockfish's own best move is never an error).
2. Asks the coach about each move: `ENGINE explain --fen FEN --move UCI [ENGINE-ARGS]`, one
   JSON line per move ({"verdict", "loss", "best", "reason": {"kind", "squares", ...},
   "nodes", "micros", ...}). Its answers are never cached.
3. Checks every reason given (kind other than none) with python-chess and Stockfish (depth
   16, one thread, 64 MB hash, niced; cached in OUT/coach_reference.json). Material along a
   line (P1 N3 B3 R5 Q9): the less favourable balance of its last two plies, less the
   balance at its start; a line where the side that should gain mates passes.
   hangs: after the move, the mover's piece on squares[0] is attacked by the opponent's on
     squares[1], and Stockfish's line wins the opponent 2 pawns (1 for a pawn);
   mate / missed_mate: Stockfish sees the opponent mate after the move / the mover mate
     before it (distance <= mate_in + 2 reported apart);
   fork / pin / skewer: a legal reply of the opponent's moves a piece to squares[0] that
     then attacks the mover's pieces on squares[1] and [2] / a bishop, rook or queen that
     looks along its line through the mover's piece on squares[1] at the one on [2]; and
     Stockfish's line wins the opponent 2 pawns;
   exchange: Stockfish's line wins the opponent 1 pawn (net - 1 reported apart);
   missed_win: the opponent has a piece on squares[2], and the best move (squares[0] to
     [1]) with Stockfish's line after it wins the mover 2 pawns (1 when a pawn is named) and takes on squares[2];
   stalemate: the move stalemates; draw: it leaves a fifty-move draw or too little material
     to mate, else "unverifiable" (repetitions are not in a FEN).
4. Reports per family of sets and for all: the share of Stockfish's blunders the coach warns
   about (mistake or blunder), of good moves it warns about (loss <= 2 or Stockfish's best),
   the confusion table, the coach's time per move ("micros", else the call's wall time) and
   nodes; how often each kind of reason is true, with up to 5 false ones. The last line is a
   JSON summary; OUT/judged.jsonl has every move with both verdicts.

Needs python-chess and Debian's stockfish (`apt-get install stockfish`, `pip install chess`).

    cargo build --release
    nice python3 tools/coach_agreement.py --jobs 2
    python3 tools/coach_agreement.py --sets glaurung-seed41 --limit 60 \\
        --engine-arg=--nodes --engine-arg=60000
    python3 tools/coach_agreement.py --selftest     # the reason checkers on handmade positions
    python3 tools/coach_agreement.py --jsonl docs/benchmarks/natural/tuning.jsonl \\
        --engine-arg=--threads --engine-arg=2    # natural blunders (tools/natural_blunders.py)
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_agreement as aa  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "docs/benchmarks/agreement")
SETS = ["glaurung-seed41", "glaurung-seed43", "glaurung-seed45", "sf-skill4-seed21",
        "sf-skill4-seed22", "sf-skill4-seed23", "toga2-seed42", "toga2-seed44", "toga2-seed46"]
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
         chess.KING: 0}
SQUARES_NEEDED = {"hangs": 2, "mate": 2, "fork": 3, "pin": 3, "skewer": 3, "exchange": 1,
                  "missed_mate": 2, "missed_win": 3, "stalemate": 0, "draw": 0}
KINDS = list(SQUARES_NEEDED)
WARNED = (aa.MISTAKE, aa.BLUNDER)


# --- 1. Stockfish's class of every move -------------------------------------------------------

def load_json(path):
    with open(path) as f:
        return json.load(f)


def save_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f)


def reference_eval(ref, board, depth):
    entry = ref.get(f"{board.fen()} d{depth}")
    if entry is not None:
        return aa.Eval.from_json(entry["eval"]), entry["best"]
    over = aa.game_over_eval(board)
    if over is None:
        sys.exit(f"no Stockfish depth {depth} verdict for {board.fen()}")
    return over, None


def load_jsonl(paths):
    """The moves of tools/natural_blunders.py's sets: Stockfish's blunders and good moves,
    classed there (a set's family is its file's name)."""
    moves = []
    for path in paths:
        family = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            for row in map(json.loads, filter(str.strip, f)):
                blunder = row["kind"] == "blunder"
                moves.append({
                    "set": family, "family": family,
                    "where": f"{family}: {row['game']} ply {row['ply']}",
                    "fen": row["fen"], "move": row["move"], "sf_best": row["sf_best"],
                    "sf_class": aa.BLUNDER if blunder else
                    aa.BEST if row["sf_best"] == row["move"] else aa.GOOD,
                    "sf_loss": row["loss"], "good": not blunder})
    return moves


def load_moves(sets, depth):
    moves = []
    for name in sets:
        folder = os.path.join(DATA, name)
        ref = load_json(os.path.join(folder, "reference.json"))
        with open(os.path.join(folder, "games.pgn")) as f:
            number = 0
            while (game := chess.pgn.read_game(f)) is not None:
                number += 1
                boards = aa.boards_of(game)
                evals = [reference_eval(ref, board, depth) for board in boards]
                for ply, move in enumerate(game.mainline_moves()):
                    (before, best), (after, _) = evals[ply], evals[ply + 1]
                    mover, played_best = boards[ply].turn, best == move.uci()
                    loss = 0.0 if played_best else (aa.win_percent(before.cp_for(mover))
                                                    - aa.win_percent(after.cp_for(mover)))
                    sf_class = aa.classify(before, after, mover, played_best)
                    moves.append({
                        "set": name, "family": name.rsplit("-seed", 1)[0],
                        "where": f"{name} game {number} ply {ply + 1}",
                        "fen": boards[ply].fen(), "move": move.uci(), "sf_best": best,
                        "sf_class": sf_class, "sf_loss": round(loss, 2),
                        "good": played_best or (sf_class in (aa.BEST, aa.GOOD) and loss <= 2)})
    return moves


# --- 2. The coach -----------------------------------------------------------------------------

def ask_coach(args, fen, uci):
    """(the coach's answer or None, why it failed or None, the call's wall time in s)."""
    command = ["nice", "-n", "10", args.engine, "explain", "--fen", fen, "--move", uci,
               *args.engine_arg]
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, f"no answer in {args.timeout} s", args.timeout
    wall = time.monotonic() - start
    if done.returncode != 0:
        return None, f"exit {done.returncode}: {done.stderr.strip()[-300:]}", wall
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if len(lines) != 1:
        return None, f"expected one JSON line, got {len(lines)}: {done.stdout[:300]!r}", wall
    try:
        answer = json.loads(lines[0])
    except ValueError as e:
        return None, f"not JSON ({e}): {lines[0][:300]!r}", wall
    if not isinstance(answer, dict) or answer.get("verdict") not in aa.CLASSES:
        return None, f"no valid verdict: {lines[0][:300]!r}", wall
    return answer, None, wall


# --- 3. Are the reasons true? -----------------------------------------------------------------

def balance(board, side):
    return sum(VALUE[p.piece_type] * (1 if p.color == side else -1)
               for p in board.piece_map().values())


def material_won(board, line, side):
    """What `side` wins along the UCI `line` from `board`: the less favourable balance of the
    line's last two plies, less the balance at its start."""
    board = board.copy(stack=False)
    balances = [balance(board, side)]
    for uci in line:
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            break
        board.push(move)
        balances.append(balance(board, side))
    return min(balances[-2:]) - balances[0]


def landings(board, square):
    """The positions after each legal move to `square` (the side to move's)."""
    for move in board.legal_moves:
        if move.to_square == square:
            there = board.copy(stack=False)
            there.push(move)
            yield there


def forks(board, s0, targets, victim):
    return any(all(t != s0 and (p := b.piece_at(t)) is not None and p.color == victim
                   and t in b.attacks(s0) for t in targets) and len(set(targets)) == 2
               for b in landings(board, s0))


def looks_through(board, s0, front, back, victim):
    """Can the side to move bring a slider to s0 that looks along a line through the
    victim's piece on `front` at the victim's piece on `back`?"""
    if not chess.BB_SQUARES[front] & chess.between(s0, back):
        return False
    straight = chess.square_file(s0) == chess.square_file(back) or \
        chess.square_rank(s0) == chess.square_rank(back)
    kinds = {chess.QUEEN, chess.ROOK if straight else chess.BISHOP}
    for b in landings(board, s0):
        slider, p1, p2 = b.piece_at(s0), b.piece_at(front), b.piece_at(back)
        if slider and slider.piece_type in kinds and slider.color != victim and \
                p1 and p1.color == victim and p2 and p2.color == victim and \
                not (chess.between(s0, front) | chess.between(front, back)) & b.occupied:
            return True
    return False


class Checker:
    def __init__(self, args):
        self.depth, self.sf, self.fresh = args.sf_depth, None, 0
        self.path = os.path.join(args.out, "coach_reference.json")
        self.cache = load_json(self.path) if os.path.exists(self.path) else {}

    def close(self):
        if self.sf is not None:
            self.sf.quit()
        save_json(self.path, self.cache)

    def analyse(self, board):
        """Stockfish's {"cp": N} or {"mate": N} for the side to move, with its "pv" (UCI)."""
        key = f"{board.fen()} d{self.depth}"
        if key not in self.cache:
            if board.is_checkmate():
                entry = {"mate": 0, "pv": []}
            elif board.is_stalemate() or board.is_insufficient_material():
                entry = {"cp": 0, "pv": []}
            else:
                if self.sf is None:
                    self.sf = chess.engine.SimpleEngine.popen_uci(
                        ["nice", "-n", "10", "/usr/games/stockfish"])
                    self.sf.configure({"Threads": 1, "Hash": 64})
                info = self.sf.analyse(board, chess.engine.Limit(depth=self.depth))
                score = info["score"].relative
                entry = {"mate": score.mate()} if score.is_mate() else {"cp": score.score()}
                entry["pv"] = [m.uci() for m in info.get("pv", [])]
            self.cache[key] = entry
            self.fresh += 1
            if self.fresh % 50 == 0:
                save_json(self.path, self.cache)
        return self.cache[key]

    def wins(self, board, side, first=None):
        """(material `side` wins on Stockfish's line from `board`, after `first` if given;
        whether Stockfish sees `side` mate there; the line)."""
        there = board.copy(stack=False)
        if first is not None:
            there.push(first)
        entry = self.analyse(there)
        mate = entry.get("mate")
        mates = mate is not None and (mate > 0 if there.turn == side else mate <= 0)
        line = ([first.uci()] if first else []) + entry["pv"]
        return material_won(board, line, side), mates, line

    def check(self, fen, uci, answer):
        """(True, False, or None where it cannot be told; notes: {name: bool}; why)."""
        board = chess.Board(fen)
        mover, opponent = board.turn, not board.turn
        after = board.copy(stack=False)
        after.push(chess.Move.from_uci(uci))
        reason = answer.get("reason") if isinstance(answer.get("reason"), dict) else {}
        kind = reason.get("kind")
        if kind not in KINDS:
            return False, {}, f"unknown reason kind {kind!r}"
        try:
            sq = [chess.parse_square(s) for s in reason.get("squares") or []]
        except (ValueError, TypeError):
            return False, {}, f"bad squares {reason.get('squares')!r}"
        if len(sq) < SQUARES_NEEDED[kind]:
            return False, {}, f"{kind} needs {SQUARES_NEEDED[kind]} squares"
        count = reason.get("net" if kind == "exchange" else "mate_in")
        if kind in ("mate", "missed_mate", "exchange") and \
                not (isinstance(count, int) and count >= 1):
            return False, {}, f"no valid {'net' if kind == 'exchange' else 'mate_in'}"
        if kind in ("stalemate", "draw"):
            true = after.is_stalemate() or kind == "draw" and (
                after.is_insufficient_material() or after.can_claim_fifty_moves() or None)
            return true, {}, "" if true else f"no {kind} visible in the FEN"
        if kind in ("mate", "missed_mate"):
            entry = self.analyse(after if kind == "mate" else board)
            true = entry.get("mate") is not None and entry["mate"] > 0
            notes = {"mate_in within claim + 2": entry["mate"] <= count + 2} if true else {}
            if true and kind == "missed_mate":  # the move played does not mate as well
                still = self.analyse(after).get("mate")  # for the opponent, to move
                notes["the mate is lost"] = still is None or still > 0
            return true, notes, f"Stockfish: {entry}"
        if kind == "missed_win":
            first = [m for m in board.legal_moves if m.from_square == sq[0]
                     and m.to_square == sq[1]]
            first.sort(key=lambda m: (m.uci() != answer.get("best"), m.promotion != chess.QUEEN))
            target = board.piece_at(sq[2])
            if not first or target is None or target.color != opponent:
                return False, {}, "no such best move or no opponent's piece on squares[2]"
            won, mates, line = self.wins(board, mover, first[0])
            takes = any(chess.Move.from_uci(m).to_square == sq[2] for m in line[::2])
            # As for hangs: a pawn claimed is a pawn won.
            # The named piece must be the one taken.
            need = max(1, min(2, VALUE[target.piece_type]))
            return (won >= need or mates) and takes, {"the line takes on squares[2]": takes}, \
                f"mover wins {won} on {' '.join(line)}"
        won, mates, line = self.wins(after, opponent)
        why = f"opponent wins {won}{' (mates)' if mates else ''} on {' '.join(line)}"
        if kind == "exchange":
            return won >= 1 or mates, {"loses at least net - 1": won >= count - 1 or mates}, why
        if kind == "hangs":
            piece, taker = after.piece_at(sq[0]), after.piece_at(sq[1])
            if not (piece and piece.color == mover and taker and taker.color == opponent
                    and sq[1] in after.attackers(opponent, sq[0])):
                return False, {}, "no such piece, taker or attack"
            # The test is the attack alone (passed here); the material kept is stricter.
            return won >= max(1, min(2, VALUE[piece.piece_type])) or mates, \
                {"the mover's piece, attacked by the taker (the issue's test)": True}, why
        notes = {"Stockfish's reply goes to squares[0]":
                 bool(line) and chess.Move.from_uci(line[0]).to_square == sq[0]}
        if kind == "fork" and not forks(after, sq[0], sq[1:3], mover):
            return False, notes, "no piece of the opponent can fork from squares[0]"
        if kind in ("pin", "skewer") and not looks_through(after, sq[0], sq[1], sq[2], mover):
            return False, notes, "no slider can look through squares[1] at squares[2]"
        return won >= 2 or mates, notes, why


def kind_of(row):
    reason = row["ours"].get("reason")
    return reason.get("kind") if isinstance(reason, dict) else None


def check_all(args, rows):
    checker = Checker(args)
    stats = {k: {"count": 0, "true": 0, "unverifiable": 0, "notes": Counter(),
                 "noted": Counter(), "false": []} for k in KINDS + ["other"]}
    start = time.monotonic()
    try:
        stated = [r for r in rows if "error" not in r and kind_of(r) != "none"]
        for i, row in enumerate(stated, start=1):
            true, notes, why = checker.check(row["fen"], row["move"], row["ours"])
            row["reason_true"] = true
            s = stats[kind_of(row) if kind_of(row) in KINDS else "other"]
            s["count"] += 1
            s["true"] += true is True
            s["unverifiable"] += true is None
            for name, value in notes.items():
                s["noted"][name] += 1
                s["notes"][name] += value
            if true is False and len(s["false"]) < 5:
                s["false"].append(f"{row['where']}: {row['fen']} {row['move']} "
                                  f"{json.dumps(row['ours'])}\n      ({why})")
            if i % 50 == 0:
                print(f"checks: {i}/{len(stated)} reasons, {time.monotonic() - start:.0f} s",
                      file=sys.stderr)
    finally:
        checker.close()
    return {k: s for k, s in stats.items() if s["count"]}


# --- 4. Report --------------------------------------------------------------------------------

def share(part, whole):
    return round(part / whole, 4) if whole else None


def percentile(values, p):
    values = sorted(values)
    return values[max(0, -(-len(values) * p // 100) - 1)] if values else None


def summary(rows):
    ok = [r for r in rows if "error" not in r]
    blunders = [r for r in ok if r["sf_class"] == aa.BLUNDER]
    good = [r for r in ok if r["good"]]
    ms = [r["ours"]["micros"] / 1000 if isinstance(r["ours"].get("micros"), (int, float))
          else r["wall_ms"] for r in ok]
    nodes = [r["ours"]["nodes"] for r in ok if isinstance(r["ours"].get("nodes"), int)]
    return {"moves": len(rows), "errors": len(rows) - len(ok), "blunders": len(blunders),
            "blunders_warned": share(sum(r["ours"]["verdict"] in WARNED for r in blunders),
                                     len(blunders)),
            "good": len(good),
            "good_warned": share(sum(r["ours"]["verdict"] in WARNED for r in good), len(good)),
            "best_agree": share(sum(r["ours"].get("best") == r["sf_best"] for r in ok
                                    if r["sf_best"]), sum(1 for r in ok if r["sf_best"])),
            "ms_median": percentile(ms, 50) and round(percentile(ms, 50), 1),
            "ms_p90": percentile(ms, 90) and round(percentile(ms, 90), 1),
            "nodes_median": percentile(nodes, 50)}


def pct(x):
    return "-" if x is None else f"{100 * x:.1f} %"


def report(args, rows, stats, wall):
    print(f"coach: {' '.join([args.engine, 'explain', *args.engine_arg])}, --jobs {args.jobs}")
    print(f"  {len(rows)} moves of {', '.join(dict.fromkeys(r['set'] for r in rows))}, "
          f"{wall:.0f} s; the coach's CPU (all threads) {args.cpu_per_move:.3f} s a move on "
          f"average")
    for r in [r for r in rows if "error" in r][:5]:
        print(f"  error: {r['where']}: {r['fen']} {r['move']}: {r['error']}")
    print("Stockfish's class (rows) against the coach's verdict (columns):")
    print(f"  {'':11} " + " ".join(f"{c:>10}" for c in aa.CLASSES))
    for sf_class in aa.CLASSES:
        row = Counter(r["ours"]["verdict"] for r in rows
                      if r["sf_class"] == sf_class and "error" not in r)
        print(f"  {sf_class:11} " + " ".join(f"{row[c]:10}" for c in aa.CLASSES))
    families = {"all": rows}
    for r in rows:
        families.setdefault(r["family"], []).append(r)
    result = {}
    for name, group in families.items():
        s = result[name] = summary(group)
        print(f"{name}: {s['moves']} moves ({s['errors']} errors); blunders warned "
              f"{pct(s['blunders_warned'])} of {s['blunders']}; good moves warned "
              f"{pct(s['good_warned'])} of {s['good']}; best move as Stockfish's "
              f"{pct(s['best_agree'])}; {s['ms_median']} ms median, {s['ms_p90']} ms 90th "
              f"percentile, {s['nodes_median']} nodes median")
    print(f"reasons (checked with Stockfish depth {args.sf_depth}; "
          f"{sum(1 for r in rows if kind_of(r) == 'none')} moves with kind none):")
    for kind, s in stats.items():
        told = pct(share(s["true"], s["count"] - s["unverifiable"]))
        print(f"  {kind:11} {s['count']:5} stated, {s['true']:5} true ({told})"
              + (f", {s['unverifiable']} unverifiable" if s["unverifiable"] else ""))
        for name in s["noted"]:
            print(f"      {name}: {s['notes'][name]} of {s['noted'][name]}")
        for line in s["false"]:
            print(f"    false: {line}")
    stated = sum(s["count"] - s["unverifiable"] for s in stats.values())
    result["reasons"] = {k: {"count": s["count"], "true": s["true"],
                             "unverifiable": s["unverifiable"]} for k, s in stats.items()}
    result["reasons_true"] = share(sum(s["true"] for s in stats.values()), stated)
    result["engine_args"] = args.engine_arg
    result["cpu_s_per_move"] = round(args.cpu_per_move, 4)
    print("JSON " + json.dumps(result))


# --- Self-test of the checkers ----------------------------------------------------------------

E4E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
FORK, PIN = "6k1/5ppp/8/8/3n4/8/7P/Q3K3 w - - 0 1", "r7/5kpp/8/8/8/4Q3/7P/4K3 w - - 0 1"
SKEWER, STALE = "r5k1/6pp/8/4K3/8/8/4Q2P/8 w - - 0 1", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"
FOOL = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"
SELFTEST = [  # (what, FEN before, move, kind, squares, more of the reason, expected truth)
    ("bishop hangs to a pawn", E4E5, "f1a6", "hangs", "a6 b7", {}, True),
    ("nothing hangs", chess.STARTING_FEN, "g1f3", "hangs", "f3 g5", {}, False),
    ("knight fork", FORK, "h2h3", "fork", "c2 e1 a1", {}, True),
    ("no fork from e2", FORK, "h2h3", "fork", "e2 e1 a1", {}, False),
    ("rook pins the queen", PIN, "h2h3", "pin", "e8 e3 e1", {}, True),
    ("pin squares in the wrong order", PIN, "h2h3", "pin", "e8 e1 e3", {}, False),
    ("rook skewers king and queen", SKEWER, "h2h3", "skewer", "e8 e5 e2", {}, True),
    ("no bishop skewers on a file", SKEWER, "h2h3", "skewer", "e6 e5 e2", {}, False),
    ("fool's mate allowed", FOOL, "g2g4", "mate", "d8 h4", {"mate_in": 1}, True),
    ("no mate allowed", chess.STARTING_FEN, "e2e4", "mate", "d8 h4", {"mate_in": 1}, False),
    ("mate in one missed", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
     "a7a6", "missed_mate", "d8 h4", {"mate_in": 1}, True),
    ("stalemate", STALE, "c1c7", "stalemate", "", {}, True),
    ("mate is no stalemate", STALE, "c1c8", "stalemate", "", {}, False),
    ("draw by material", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", "e1d2", "draw", "", {}, True),
    ("draw unverifiable", chess.STARTING_FEN, "e2e4", "draw", "", {}, None),
    ("knight for a pawn", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
     "f3e5", "exchange", "e5", {"net": 2}, True),
    ("no exchange", "4k3/8/8/8/8/4K3/4P3/8 w - - 0 1", "e3d3", "exchange", "e2", {"net": 1},
     False),
    ("bishop left en prise", "rnbqkbnr/pppp1ppp/B7/4p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2",
     "g8f6", "missed_win", "b7 a6 a6", {}, True),
    ("nothing to win", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5",
     "missed_win", "d7 d5 e4", {}, False),
    ("unknown kind", chess.STARTING_FEN, "e2e4", "zugzwang", "", {}, False),
    ("bad square", chess.STARTING_FEN, "e2e4", "hangs", "e4 z9", {}, False),
]


def selftest(args):
    checker, failed = Checker(args), 0
    try:
        for what, fen, uci, kind, squares, more, expected in SELFTEST:
            reason = {"kind": kind, "squares": squares.split(), **more}
            best = "".join(squares.split()[:2]) if kind == "missed_win" else None
            true, notes, why = checker.check(fen, uci, {"verdict": aa.BLUNDER, "best": best,
                                                        "reason": reason})
            failed += true is not expected
            print(f"{'ok  ' if true is expected else 'FAIL'} {what}: {true} (expected "
                  f"{expected}); {why} {notes or ''}")
    finally:
        checker.close()
    print(f"selftest: {len(SELFTEST) - failed} of {len(SELFTEST)} as expected")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "target/release/chesspi-engine"))
    parser.add_argument("--engine-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for `explain` (repeatable; write "
                             "--engine-arg=--nodes --engine-arg=60000)")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated, of: " +
                        ", ".join(SETS))
    parser.add_argument("--jsonl", action="append", default=[], metavar="FILE",
                        help="judge the moves of a set of tools/natural_blunders.py instead "
                             "(repeatable, e.g. docs/benchmarks/natural/tuning.jsonl)")
    parser.add_argument("--limit", type=int, help="judge only the first N moves")
    parser.add_argument("--jobs", type=int, default=1, help="coach calls at once")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per coach call")
    parser.add_argument("--out", default="/tmp/coach-agreement", help="work directory")
    parser.add_argument("--ref-depth", type=int, default=18,
                        help="the depth of the kept verdicts in reference.json")
    parser.add_argument("--sf-depth", type=int, default=16, help="Stockfish for the reasons")
    parser.add_argument("--selftest", action="store_true", help="check the checkers and stop")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.selftest:
        sys.exit(selftest(args))
    sets = [s for s in args.sets.split(",") if s]
    unknown = [s for s in sets if not os.path.isdir(os.path.join(DATA, s))]
    if unknown or not sets:
        sys.exit(f"unknown sets {unknown}; there are {', '.join(SETS)}")
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"{args.engine} is not an executable (cargo build --release, or --engine)")
    rows = load_jsonl(args.jsonl) if args.jsonl else load_moves(sets, args.ref_depth)
    rows = rows[:args.limit]
    start = time.monotonic()
    # The coach's CPU (all its threads; Stockfish is started only after this phase).
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        answers = pool.map(lambda r: ask_coach(args, r["fen"], r["move"]), rows)
        for i, (row, (answer, error, wall)) in enumerate(zip(rows, answers), start=1):
            row["ours"], row["wall_ms"] = answer or {}, 1000 * wall
            if error:
                row["error"] = error
            if i % 100 == 0:
                print(f"coach: {i}/{len(rows)} moves, {time.monotonic() - start:.0f} s",
                      file=sys.stderr)
    wall = time.monotonic() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime)
    args.cpu_per_move = cpu / len(rows) if rows else 0.0
    if rows and all("error" in r for r in rows):
        sys.exit(f"the coach failed on every move, e.g. {rows[0]['error']}")
    stats = check_all(args, rows)
    with open(os.path.join(args.out, "judged.jsonl"), "w") as f:  # for debugging
        for row in rows:
            print(json.dumps(row), file=f)
    report(args, rows, stats, wall)


if __name__ == "__main__":
    main()
