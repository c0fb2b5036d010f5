#!/usr/bin/env python3
"""How well `chesspi-engine analyze` finds blunders, judged by Stockfish (issue 14).

1. Makes games: chesspi-engine plays itself at a weak level (natural inaccuracies), or
   another engine (`--player`, e.g. Stockfish with a low `Skill Level`) plays itself, with
   random first moves, and at random moments a planted blunder: a random move that a quick
   Stockfish look (depth 10) says loses at least 20 points of win probability.
2. Runs `chesspi-engine analyze` on them at the given budget (default: the Pi's, 60 000
   nodes per position).
3. Has Stockfish (depth 18, one thread) evaluate every position and classes each move with
   the same model as chesspi_engine::analysis (lichess's win-probability formula, 5/10/15
   point thresholds, mate rules, the judge's own best move is never an error), on
   Stockfish's centipawns as they are (the engine scales its own to that scale).
4. Reports the share of Stockfish's blunders that chesspi-engine also marks ?? (the
   agreement) and chesspi-engine's ?? marks that Stockfish does not call blunders (false
   alarms; "serious" ones where Stockfish sees at most an inaccuracy). The last line is a
   JSON summary.

Stockfish's verdicts are cached in OUT/reference.json, so re-running with another budget
only re-runs the analysis. Needs python-chess and Debian's stockfish
(`apt-get install stockfish`, `pip install chess`; see ../shared/tools/README.md).

    nice python3 tools/analysis_agreement.py --games 10 --out /tmp/agreement
    python3 tools/analysis_agreement.py --out /tmp/agreement --movetime 40   # reuses games

The game sets measured in docs/BENCHMARKS.md, with Stockfish's verdicts, are kept in
docs/benchmarks/agreement/ (the games are not reproducible from the seed: the players think
on the clock); copy one to a work directory and pass it as --out.
"""

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import time

import chess
import chess.engine
import chess.pgn

BLUNDER, MISTAKE, INACCURACY, GOOD, BEST = "blunder", "mistake", "inaccuracy", "good", "best"
CLASSES = [BEST, GOOD, INACCURACY, MISTAKE, BLUNDER]
NAG_CLASS = {4: BLUNDER, 2: MISTAKE, 6: INACCURACY}


# --- The model, as in engine/src/analysis/model.rs ------------------------------------------

class Eval:
    """White's view: centipawns, or a mate by `winner` in `moves` (0: mated on the board)."""

    def __init__(self, cp=None, winner=None, moves=None):
        self.cp, self.winner, self.moves = cp, winner, moves

    @staticmethod
    def of_score(score: chess.engine.PovScore, board: chess.Board) -> "Eval":
        white = score.white()
        if white.is_mate():
            mate = white.mate()
            if mate == 0:  # the side to move is mated
                return Eval(winner=not board.turn, moves=0)
            return Eval(winner=chess.WHITE if mate > 0 else chess.BLACK, moves=abs(mate))
        return Eval(cp=white.score())

    def cp_for(self, side):
        if self.cp is None:
            return 1000 if self.winner == side else -1000
        cp = max(-1000, min(1000, self.cp))
        return cp if side == chess.WHITE else -cp

    def mate_for(self, side):
        if self.cp is not None:
            return None
        return self.moves if self.winner == side else -self.moves

    def to_json(self):
        if self.cp is not None:
            return {"cp": self.cp}
        return {"winner": "white" if self.winner else "black", "moves": self.moves}

    @staticmethod
    def from_json(data):
        if "cp" in data:
            return Eval(cp=data["cp"])
        return Eval(winner=data["winner"] == "white", moves=data["moves"])


def win_percent(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def scaled(e: Eval, scale):
    """`e` with its centipawns times `scale` (a mate stays a mate)."""
    return e if scale == 1.0 or e.cp is None else Eval(cp=round(e.cp * scale))


def classify(before: Eval, after: Eval, mover, played_best):
    if played_best:
        return BEST
    prev_mate, next_mate = before.mate_for(mover), after.mate_for(mover)
    if prev_mate is None and next_mate is None:
        loss = win_percent(before.cp_for(mover)) - win_percent(after.cp_for(mover))
        if loss >= 15:
            return BLUNDER
        if loss >= 10:
            return MISTAKE
        if loss >= 5:
            return INACCURACY
        return BEST if loss <= 0 else GOOD
    mated_now = after.cp is None and after.moves == 0 and after.winner != mover
    prev_cp = before.cp_for(mover)
    next_cp = after.cp_for(mover) if after.cp is not None else 0
    if prev_mate is None and (next_mate < 0 or mated_now):
        return INACCURACY if prev_cp < -999 else MISTAKE if prev_cp < -700 else BLUNDER
    if next_mate is None and prev_mate > 0:
        return INACCURACY if next_cp > 999 else MISTAKE if next_cp > 700 else BLUNDER
    if prev_mate is not None and next_mate is not None and prev_mate > 0 and (
            next_mate < 0 or mated_now):
        return BLUNDER
    return GOOD


def game_over_eval(board: chess.Board):
    if board.is_checkmate():
        return Eval(winner=not board.turn, moves=0)
    if board.is_stalemate() or board.is_insufficient_material():
        return Eval(cp=0)
    return None


# --- 1. Games --------------------------------------------------------------------------------

def quick_eval(sf, board, depth):
    over = game_over_eval(board)
    if over is not None:
        return over
    return Eval.of_score(sf.analyse(board, chess.engine.Limit(depth=depth))["score"], board)


def plant_blunder(sf, board, rng, depth):
    """A random legal move losing >= 20 win points by a quick look, or None."""
    before = quick_eval(sf, board, depth)
    mover = board.turn
    candidates = list(board.legal_moves)
    rng.shuffle(candidates)
    for move in candidates[:12]:
        board.push(move)
        after = quick_eval(sf, board, depth)
        board.pop()
        loss = win_percent(before.cp_for(mover)) - win_percent(after.cp_for(mover))
        if loss >= 20 and classify(before, after, mover, False) == BLUNDER:
            return move
    return None


def make_games(args, path):
    rng = random.Random(args.seed)
    player = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", args.player or args.engine])
    if args.player:
        player.configure(dict(option.split("=", 1) for option in args.player_option))
    else:
        player.configure({"Level": args.level})
    name = f"ChessPI level {args.level}"
    if args.player:
        name = " ".join([player.id.get("name", "player"), *args.player_option])
    sf = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", args.stockfish])
    sf.configure({"Threads": 1, "Hash": 32})
    games = []
    try:
        for number in range(1, args.games + 1):
            board = chess.Board()
            game = chess.pgn.Game()
            game.headers.update({"Event": "analysis agreement", "Round": str(number),
                                 "White": name, "Black": name})
            planted = []
            node = game
            while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
                move = None
                if board.ply() < 2:
                    move = rng.choice(list(board.legal_moves))
                elif board.ply() >= 6 and rng.random() < args.plant_rate:
                    move = plant_blunder(sf, board, rng, args.plant_depth)
                    if move is not None:
                        planted.append(board.ply())
                if move is None:
                    limit = chess.engine.Limit(time=args.player_time) if args.player else \
                        chess.engine.Limit(time=5)
                    move = player.play(board, limit).move
                node = node.add_variation(move)
                board.push(move)
            game.headers["Result"] = board.result(claim_draw=True)
            game.headers["PlantedPlies"] = " ".join(map(str, planted))
            games.append(game)
            print(f"game {number}: {board.ply()} plies, planted at {planted}", file=sys.stderr)
    finally:
        player.quit()
        sf.quit()
    with open(path, "w") as f:
        for game in games:
            print(game, file=f, end="\n\n")


# --- 2. chesspi-engine analyze ----------------------------------------------------------------

def run_ours(args, games_path, out_path):
    budget = ["--movetime", str(args.movetime)] if args.movetime else ["--nodes", str(args.nodes)]
    command = ["nice", "-n", "10", args.engine, "analyze", *budget,
               "--threads", "1", "--search-threads", str(args.search_threads), games_path]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(out_path, "w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"analyze failed ({done.returncode}): {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return " ".join(command), wall, cpu


def read_ours(path):
    """Per game, per move: the class from the NAGs, and the side that moved with the [%eval]
    after the move (the engine's own centipawns, White's view)."""
    result, evals = [], []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if game.errors:
                sys.exit(f"python-chess could not read the analysis: {game.errors}")
            moves, after = [], []
            for node in game.mainline():
                marks = [NAG_CLASS[n] for n in node.nags if n in NAG_CLASS]
                if node.eval() is None:
                    sys.exit(f"no [%eval] after {node.san()} in {game.headers}")
                moves.append(marks[0] if marks else "ok")
                after.append((not node.board().turn, Eval.of_score(node.eval(), node.board())))
            result.append(moves)
            evals.append(after)
    return result, evals


def rescaled_marks(evals, scale):
    """Per game, per move: the class of the analysis's stored evaluations with the engine's
    centipawns times `scale` instead of the model's 1.7244 (the trade-off a scale buys,
    without searching again). Approximate: a move the analysis found best is judged by its
    loss like any other."""
    marks = []
    for after in evals:
        before, classes = Eval(cp=0), []
        for mover, here in after:
            here = scaled(here, scale)
            classes.append(classify(before, here, mover, False))
            before = here
        marks.append(classes)
    return marks


def tally(sf, marks, planted_by_game):
    """Stockfish's blunders that `marks` calls blunders: (found, of, the players' own found,
    of, false alarms)."""
    found = total = own_found = own = alarms = 0
    for planted, theirs, ours in zip(planted_by_game, sf, marks):
        for ply, (judge, mark) in enumerate(zip(theirs, ours)):
            if judge == BLUNDER:
                total += 1
                found += mark == BLUNDER
                if ply not in planted:
                    own += 1
                    own_found += mark == BLUNDER
            else:
                alarms += mark == BLUNDER
    return found, total, own_found, own, alarms


# --- 3. Stockfish's reference -----------------------------------------------------------------

def reference(args, games, cache_path, options=(), scale=1.0):
    """Stockfish's class of every move at `args.sf_depth`, with the UCI `options`
    (NAME=VALUE) and its centipawns times `scale` before classing."""
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    # Verdicts with other options (a baseline's) are cached apart from the judge's.
    suffix = "".join(f" {o}" for o in options)
    key_of = lambda board: f"{board.fen()} d{args.sf_depth}{suffix}"  # noqa: E731
    todo = sum(1 for g in games for b in boards_of(g) if key_of(b) not in cache)
    sf = None
    start, done = time.monotonic(), 0
    try:
        for game in games:
            for board in boards_of(game):
                key = key_of(board)
                if key in cache:
                    continue
                over = game_over_eval(board)
                if over is not None:
                    cache[key] = {"eval": over.to_json(), "best": None}
                    continue
                if sf is None:
                    sf = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", args.stockfish])
                    sf.configure({"Threads": 1, "Hash": 64, **uci_options(options)})
                info = sf.analyse(board, chess.engine.Limit(depth=args.sf_depth))
                pv = info.get("pv") or [None]
                cache[key] = {"eval": Eval.of_score(info["score"], board).to_json(),
                              "best": pv[0].uci() if pv[0] else None}
                done += 1
                if done % 50 == 0:
                    print(f"stockfish: {done}/{todo} positions, "
                          f"{time.monotonic() - start:.0f} s", file=sys.stderr)
                    with open(cache_path, "w") as f:
                        json.dump(cache, f)
    finally:
        if sf is not None:
            sf.quit()
    with open(cache_path, "w") as f:
        json.dump(cache, f)
    verdicts = []
    for game in games:
        boards = boards_of(game)
        moves = list(game.mainline_moves())
        classes = []
        for i, move in enumerate(moves):
            here, there = cache[key_of(boards[i])], cache[key_of(boards[i + 1])]
            before, after = (scaled(Eval.from_json(e["eval"]), scale) for e in (here, there))
            classes.append(classify(before, after, boards[i].turn, here["best"] == move.uci()))
        verdicts.append(classes)
    return verdicts, time.monotonic() - start


def uci_options(pairs):
    """`NAME=VALUE` strings as a python-chess option dict."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"expected NAME=VALUE, got {pair!r}")
        options[name] = {"true": True, "false": False}.get(value.lower(), value)
    return options


def boards_of(game):
    board = game.board()
    boards = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        boards.append(board.copy())
    return boards


def probe_misses(args, missed_positions):
    budgets = [int(n) for n in args.probe_misses.split(",")]
    with open(os.path.join(args.out, "reference.json")) as f:
        cache = json.load(f)
    engine = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", args.engine])
    far = [0] * len(budgets)
    try:
        engine.configure({"Hash": 64})
        print(f"missed blunders, the position after the move (White's view): Stockfish depth "
              f"{args.sf_depth}, then chesspi-engine at {', '.join(map(str, budgets))} nodes")
        for where, board in missed_positions:
            judge = Eval.from_json(cache[f"{board.fen()} d{args.sf_depth}"]["eval"])
            scores = []
            for i, nodes in enumerate(budgets):
                engine.protocol.send_line("ucinewgame")
                score = engine.analyse(board, chess.engine.Limit(nodes=nodes))["score"]
                ours = Eval.of_score(score, board)
                far[i] += abs(ours.cp_for(chess.WHITE) - judge.cp_for(chess.WHITE)) > 75
                scores.append(eval_text(ours))
            print(f"  {where}: {eval_text(judge)} | {' '.join(scores)}")
    finally:
        engine.quit()
    print("  more than 0.75 pawn from Stockfish: " + ", ".join(
        f"{n} of {len(missed_positions)} at {b} nodes" for n, b in zip(far, budgets)))


def eval_text(e):
    if e.cp is not None:
        return f"{e.cp / 100:+.2f}"
    return ("#" if e.winner == chess.WHITE else "#-") + str(e.moves)


# --- 4. Comparison ----------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--engine", default=os.path.join(root, "target/release/chesspi-engine"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--out", default="/tmp/analysis_agreement", help="work directory")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--max-plies", type=int, default=70)
    parser.add_argument("--level", type=int, default=6, help="chesspi-engine level playing")
    parser.add_argument("--player", help="another UCI engine plays the games (not chesspi-engine)")
    parser.add_argument("--player-option", action="append", default=[], metavar="NAME=VALUE",
                        help="UCI option for --player, e.g. 'Skill Level=3' (repeatable)")
    parser.add_argument("--player-time", type=float, default=0.1,
                        help="seconds per move for --player")
    parser.add_argument("--plant-rate", type=float, default=0.08,
                        help="chance per ply of planting a blunder (from ply 6)")
    parser.add_argument("--plant-depth", type=int, default=10)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--nodes", type=int, default=60000, help="analysis nodes per position")
    parser.add_argument("--movetime", type=int, help="analysis ms per position (not --nodes)")
    parser.add_argument("--search-threads", type=int, default=1,
                        help="threads of each analysis search (each spends the budget; with "
                             "--movetime, the same wall time on more cores)")
    parser.add_argument("--sf-depth", type=int, default=18)
    parser.add_argument("--baseline-depth", type=int, metavar="D",
                        help="also judge Stockfish at depth D against the reference, as if it "
                             "were the analyser: what a fast analysis by the judge itself agrees")
    parser.add_argument("--baseline-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option for the --baseline-depth Stockfish (repeatable), e.g. "
                             "'Use NNUE=false' for its hand-written evaluation")
    parser.add_argument("--baseline-scale", type=float, default=1.0, metavar="S",
                        help="the baseline's centipawns times S before they are classed (its "
                             "hand-written evaluation reports smaller numbers than its network)")
    parser.add_argument("--rescale", metavar="S,S,...",
                        help="also class the stored evaluations with the engine's centipawns "
                             "times these scales instead of 1.7244 (the trade-off between "
                             "blunders found and false alarms; no new search)")
    parser.add_argument("--probe-misses", metavar="N,N,...",
                        help="search the position after each missed blunder alone (UCI, 64 MB "
                             "hash, a new game each time) at these node counts, beside "
                             "Stockfish's score: does a bigger budget find what was missed?")
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    games_path = os.path.join(args.out, "games.pgn")
    if not os.path.exists(games_path):
        make_games(args, games_path)
    games = []
    with open(games_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    budget = f"movetime{args.movetime}" if args.movetime else f"nodes{args.nodes}"
    if args.search_threads > 1:
        budget += f"-threads{args.search_threads}"
    ours_path = os.path.join(args.out, f"analysed-{budget}.pgn")
    command, wall, cpu = run_ours(args, games_path, ours_path)
    ours, our_evals = read_ours(ours_path)
    sf, sf_time = reference(args, games, os.path.join(args.out, "reference.json"))

    moves = sum(len(g) for g in sf)
    confusion = {c: {o: 0 for o in ["ok", INACCURACY, MISTAKE, BLUNDER]} for c in CLASSES}
    serious = 0
    misses, alarms, missed_positions = [], [], []
    planted_by_game = [{int(p) for p in game.headers.get("PlantedPlies", "").split()}
                       for game in games]
    # natural: Stockfish's blunders that were not planted, the players' own
    found, sf_blunders, natural_found, natural, false_alarms = tally(sf, ours, planted_by_game)
    planted, planted_found = sf_blunders - natural, found - natural_found
    for number, (game, theirs, mine) in enumerate(zip(games, sf, ours), start=1):
        sans = [n.san() for n in game.mainline()]
        boards = boards_of(game)
        for ply, (judge, mark) in enumerate(zip(theirs, mine)):
            confusion[judge][mark] += 1
            where = f"game {number} ply {ply + 1} {sans[ply]}"
            if judge == BLUNDER and mark != BLUNDER:
                misses.append(f"{where} (ours: {mark})")
                missed_positions.append((where, boards[ply + 1]))
            elif judge != BLUNDER and mark == BLUNDER:
                serious += judge in (BEST, GOOD, INACCURACY)
                alarms.append(f"{where} (Stockfish: {judge})")
    ours_blunders = found + false_alarms
    agreement = found / sf_blunders if sf_blunders else float("nan")
    alarm_share = false_alarms / ours_blunders if ours_blunders else 0.0

    print(f"analysis: {command}")
    print(f"  {moves} moves in {len(games)} games, {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({1000 * cpu / (moves + len(games)):.0f} ms CPU per position)")
    print(f"stockfish depth {args.sf_depth}: {sf_time:.0f} s (0 when cached)")
    print("Stockfish's class (rows) against chesspi-engine's mark (columns):")
    print(f"  {'':11} {'ok':>5} {'?!':>5} {'?':>5} {'??':>5}")
    for judge in CLASSES:
        row = confusion[judge]
        print(f"  {judge:11} " + " ".join(f"{row[k]:5}" for k in row))
    print(f"blunders found: {found} of {sf_blunders} = {100 * agreement:.1f} % (goal >= 90 %)")
    print(f"  planted blunders confirmed by Stockfish: {planted}, found: {planted_found}")
    print(f"  the players' own blunders: {natural}, found: {natural_found}")
    print(f"false alarms: {false_alarms} of {ours_blunders} ?? marks = {100 * alarm_share:.1f} %"
          f" ({serious} where Stockfish sees at most an inaccuracy)")
    for line in misses:
        print(f"  missed: {line}")
    for line in alarms:
        print(f"  false alarm: {line}")
    if args.probe_misses:
        probe_misses(args, missed_positions)
    for scale in [float(x) for x in args.rescale.split(",")] if args.rescale else []:
        f, t, of, o, a = tally(sf, rescaled_marks(our_evals, scale), planted_by_game)
        print(f"re-classed with the engine's centipawns x{scale}: blunders found {f} of {t} = "
              f"{100 * f / max(t, 1):.1f} %, the players' own {of} of {o}, false alarms {a} of "
              f"{f + a} = {100 * a / max(f + a, 1):.1f} %")
    if args.baseline_depth:
        shallow = argparse.Namespace(**{**vars(args), "sf_depth": args.baseline_depth})
        marks, _ = reference(shallow, games, os.path.join(args.out, "reference.json"),
                             args.baseline_option, args.baseline_scale)
        b_found, b_total, b_natural_found, _, b_alarms = tally(sf, marks, planted_by_game)
        marked = b_found + b_alarms
        setting = "".join(f", {o}" for o in args.baseline_option)
        if args.baseline_scale != 1.0:
            setting += f", centipawns x{args.baseline_scale}"
        print(f"baseline, Stockfish at depth {args.baseline_depth}{setting} as the analyser: "
              f"blunders found {b_found} of {b_total} = {100 * b_found / max(b_total, 1):.1f} "
              f"%, false alarms {b_alarms} of {marked} = {100 * b_alarms / max(marked, 1):.1f} "
              f"%; the players' own blunders found {b_natural_found} of {natural}")
    print("JSON " + json.dumps({
        "games": len(games), "moves": moves, "budget": budget, "cpu_s": round(cpu, 1),
        "sf_blunders": sf_blunders, "found": found, "agreement": round(agreement, 4),
        "false_alarms": false_alarms, "serious_false_alarms": serious,
        "ours_blunders": ours_blunders, "planted": planted, "planted_found": planted_found,
        "natural": natural, "natural_found": natural_found}))


if __name__ == "__main__":
    main()
