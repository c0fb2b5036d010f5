#!/usr/bin/env python3
"""Engine matches for ChessPI's measurements: W/D/L, Elo with its 95 % interval, pairs.

Engines are named in a TOML file (tools/engines.toml: ChessPI's levels and the Debian
engines) or given as a path to a UCI binary. Each opening is played twice, colours
reversed; the score of each pair (0, 0.5, ..., 2) gives the interval (pentanomial), since
the two games of a pair share their opening. The load average is printed at the start and
the end: node-limited engines against clock-limited ones gain on a busy machine.

    python3 tools/match.py --engine L7 --opponent hoichess --games 60 --tc tc=10+0.1
    python3 tools/match.py --engine target/release/chesspi-engine --engine-opt Threads=2 \\
        --opponent target/release/chesspi-engine --games 200 --tc tc=5+0.05 --concurrency 1
    python3 tools/match.py --engine L9 --opponent L10 --games 100 --tc nodes=0 --openings F.epd

--tc: nodes=N | movetime=MS | depth=D | tc=BASE[+INC] (seconds); nodes=0 leaves a ChessPI
level its own budget (the level's limits bound the search; the engine gets no limit of its
own but the level's). Openings: an EPD/FEN file (one position a line; an EPD `moves "e2e4
e7e5"` field is played from the start position instead), or a PGN file (each game's moves);
without one, the built-in list below. The last line is a JSON summary.

Needs python-chess (`pip install chess`) and, for the Debian engines,
`apt-get install stockfish phalanx fairymax sjeng glaurung toga2 gnuchess hoichess`.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import sys
import threading
import time
import tomllib

import chess
import chess.engine
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINES = os.path.join(ROOT, "tools", "engines.toml")

# Common openings, four plies each, when no file is given.
BUILT_IN = [
    "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5", "d2d4 d7d5 c2c4 e7e6", "d2d4 g8f6 c2c4 g7g6",
    "d2d4 g8f6 c2c4 e7e6", "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6",
    "e2e4 d7d6 d2d4 g8f6", "e2e4 g7g6 d2d4 f8g7", "d2d4 d7d5 c2c4 c7c6",
    "e2e4 c7c5 b1c3 b8c6", "d2d4 f7f5 g2g3 g8f6", "e2e4 d7d5 e4d5 d8d5",
    "c2c4 c7c5 g1f3 g8f6",
]

# A game longer than this is adjudicated a draw (both engines shuffling).
MAX_PLIES = 500


class Fault(Exception):
    """An engine crashed or broke the protocol: it loses the game, and both restart."""

    def __init__(self, kind, detail, loser, board):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.loser, self.board = kind, loser, board


def load_engines(path):
    if not os.path.exists(path):
        return {}
    with open(path, "rb") as f:
        return tomllib.load(f)


def engine_spec(name, table, extra_options):
    """(label, argv, protocol, options) of an engine named in the table or given as a path."""
    if name in table:
        entry = table[name]
        argv = list(entry["cmd"])
        protocol = entry.get("protocol", "uci")
        options = dict(entry.get("options", {}))
    elif os.path.exists(name):
        argv, protocol, options = [os.path.abspath(name)], "uci", {}
    else:
        sys.exit(f"match.py: no engine '{name}' in {DEFAULT_ENGINES} and no such file")
    # A relative command in the table is relative to the repository (target/release/...).
    if not os.path.isabs(argv[0]) and os.path.exists(os.path.join(ROOT, argv[0])):
        argv[0] = os.path.join(ROOT, argv[0])
    for text in extra_options:
        key, _, value = text.partition("=")
        options[key] = value
    label = name if not extra_options else f"{name}({','.join(extra_options)})"
    return label, argv, protocol, options


def open_engine(spec):
    _, argv, protocol, options = spec
    if protocol == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(argv, stderr=subprocess_devnull())
    else:
        engine = chess.engine.SimpleEngine.popen_uci(argv, stderr=subprocess_devnull())
    known = {k.lower(): k for k in engine.options}
    settable = {}
    for key, value in options.items():
        real = known.get(key.lower())
        if real is None:
            engine.quit()
            sys.exit(f"match.py: {spec[0]} has no option '{key}'")
        settable[real] = value
    if settable:
        engine.configure(settable)
    return engine


def subprocess_devnull():
    import subprocess

    return subprocess.DEVNULL


def parse_tc(text):
    kind, _, value = text.partition("=")
    try:
        if kind == "nodes":
            return ("nodes", int(value))
        if kind == "movetime":
            return ("movetime", int(value) / 1000)
        if kind == "depth":
            return ("depth", int(value))
        if kind == "tc":
            base, _, inc = value.partition("+")
            return ("tc", float(base), float(inc or 0))
    except ValueError:
        pass
    sys.exit(f"match.py: --tc '{text}' is not nodes=N, movetime=MS, depth=D or tc=BASE+INC")


def read_openings(path):
    """Start boards with the moves that lead there (for the PGN)."""
    if path is None:
        lines = [f'moves "{m}"' for m in BUILT_IN]
        return [opening_from_epd(line) for line in lines]
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".pgn"):
        import io

        stream, openings = io.StringIO(text), []
        while (game := chess.pgn.read_game(stream)) is not None:
            board = game.board()
            moves = list(game.mainline_moves())
            openings.append((board.fen(), moves))
        return openings
    return [opening_from_epd(line) for line in text.splitlines() if line.strip()]


def opening_from_epd(line):
    if 'moves "' in line:
        moves_text = line.split('moves "', 1)[1].split('"', 1)[0]
        board = chess.Board()
        moves = []
        for uci in moves_text.split():
            move = chess.Move.from_uci(uci)
            if move not in board.legal_moves:
                sys.exit(f"match.py: opening '{line}': {uci} is illegal")
            board.push(move)
            moves.append(move)
        return (chess.STARTING_FEN, moves)
    fields = line.split()
    fen = " ".join(fields[:4]) + (" " + " ".join(fields[4:6]) if len(fields) >= 6 and
                                   fields[4].isdigit() else " 0 1")
    try:
        chess.Board(fen)
    except ValueError as e:
        sys.exit(f"match.py: opening '{line}': {e}")
    return (fen, [])


def play_game(engines, white, opening, tcs):
    """One game; `engines` = (first, second) open engines, `white` = index of white's, `tcs`
    their limits (a clock only when both play on the same one).
    Returns (result from first's view: 1, 0.5, 0; termination; pgn game)."""
    tc = tcs[0]
    start_fen, start_moves = opening
    board = chess.Board(start_fen)
    for move in start_moves:
        board.push(move)
    clocks = [tc[1], tc[1]] if tc[0] == "tc" else None
    # One key for the whole game: a new key tells the engines a new game has begun.
    game_key = object()
    termination = None
    loser = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            break
        if board.ply() >= MAX_PLIES:
            termination = "adjudicated draw (length)"
            break
        side = 0 if board.turn == chess.WHITE else 1
        mover = white if side == 0 else 1 - white
        engine = engines[mover]
        tc = tcs[mover]
        if tc[0] == "nodes":
            limit = chess.engine.Limit(nodes=tc[1]) if tc[1] > 0 else chess.engine.Limit()
        elif tc[0] == "movetime":
            limit = chess.engine.Limit(time=tc[1])
        elif tc[0] == "depth":
            limit = chess.engine.Limit(depth=tc[1])
        else:
            limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1],
                                       white_inc=tc[2], black_inc=tc[2])
        started = time.monotonic()
        try:
            result = engine.play(board, limit, game=game_key)
        except chess.engine.EngineTerminatedError as e:
            raise Fault("crash", str(e), mover, board) from e
        except (chess.engine.EngineError, chess.IllegalMoveError) as e:
            raise Fault("protocol", str(e), mover, board) from e
        spent = time.monotonic() - started
        if clocks is not None:
            clocks[side] -= spent
            if clocks[side] < 0:
                termination, loser = "time forfeit", mover
                break
            clocks[side] += tc[2]
        move = result.move
        if move is None or move not in board.legal_moves:
            termination, loser = f"illegal move {move}", mover
            break
        board.push(move)
    if loser is not None:
        score = 0.0 if loser == 0 else 1.0
    else:
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            score = 0.5
        else:
            first_is_white = white == 0
            score = 1.0 if (outcome.winner == chess.WHITE) == first_is_white else 0.0
        if termination is None:
            termination = outcome.termination.name.lower() if outcome else "draw"
    return score, termination, board


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pair_interval(pair_scores):
    """Elo and its 95 % margin from the pairs' mean and spread (each pair 0..2 points)."""
    n = len(pair_scores)
    if n == 0:
        return 0.0, float("inf")
    per_game = [p / 2 for p in pair_scores]
    mean = sum(per_game) / n
    var = sum((x - mean) ** 2 for x in per_game) / n if n > 1 else 0.25
    sd = math.sqrt(var / n)
    low, high = elo_of(mean - 1.96 * sd), elo_of(mean + 1.96 * sd)
    return elo_of(mean), (high - low) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default=DEFAULT_ENGINES, help="TOML naming the engines")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--engine-opt", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--opponent", required=True, help="one name, or several comma separated")
    ap.add_argument("--opponent-opt", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--games", type=int, default=20, help="games per opponent (even)")
    ap.add_argument("--tc", default="tc=10+0.1")
    ap.add_argument("--opponent-tc", help="the opponent's own limit, as --tc (nodes, movetime "
                    "or depth; the default: --tc), to chain levels through a node budget")
    ap.add_argument("--openings")
    ap.add_argument("--seed", type=int, default=1, help="order of the openings")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgn", help="write the games here")
    args = ap.parse_args()

    table = load_engines(args.engines)
    first = engine_spec(args.engine, table, args.engine_opt)
    opponents = [engine_spec(o, table, args.opponent_opt) for o in args.opponent.split(",")]
    tc = parse_tc(args.tc)
    tcs = (tc, parse_tc(args.opponent_tc) if args.opponent_tc else tc)
    if args.opponent_tc and "tc" in (tcs[0][0], tcs[1][0]):
        sys.exit("match.py: with --opponent-tc, both limits are nodes=N, movetime=MS or depth=D")
    openings = read_openings(args.openings)
    random.Random(args.seed).shuffle(openings)
    pairs = max(1, args.games // 2)

    jobs = []  # (opponent index, pair index, colour of first: 0 white)
    for o in range(len(opponents)):
        for p in range(pairs):
            jobs.extend([(o, p, 0), (o, p, 1)])

    local = threading.local()
    opened = []  # every engine started, to quit them all at the end
    opened_lock = threading.Lock()
    loads = []  # the 1-minute load average every 30 s while the games run
    finished = threading.Event()

    def sample_load():
        while not finished.wait(30):
            loads.append(os.getloadavg()[0])

    threading.Thread(target=sample_load, daemon=True).start()
    results = {}
    faults = {}
    games_out = []
    load_start = os.getloadavg()
    print(f"{first[0]} against {', '.join(o[0] for o in opponents)}: {len(jobs)} games at "
          f"{args.tc}, load average {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}",
          flush=True)

    def engines_for(o):
        cache = getattr(local, "engines", None)
        if cache is None:
            cache = local.engines = {}
        if o not in cache:
            cache[o] = (open_engine(first), open_engine(opponents[o]))
            with opened_lock:
                opened.extend(cache[o])
        return cache[o]

    def run(job):
        o, p, colour = job
        opening = openings[p % len(openings)]
        pair = engines_for(o)
        try:
            score, termination, board = play_game(pair, colour, opening, tcs)
        except Fault as fault:
            for engine in pair:
                try:
                    engine.quit()
                except Exception:
                    pass
            local.engines.pop(o, None)
            who = "engine" if fault.loser == 0 else "opponent"
            score = 0.0 if fault.loser == 0 else 1.0
            return job, score, f"{fault.kind} of the {who}", fault.board
        return job, score, termination, board

    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        for job, score, termination, board in pool.map(run, jobs):
            done += 1
            o, p, colour = job
            names = (first[0], opponents[o][0]) if colour == 0 else (opponents[o][0], first[0])
            results[job] = score
            kind = next((k for k in ("forfeit", "illegal", "crash", "protocol")
                         if k in termination), None)
            if kind:
                faults[kind] = faults.get(kind, 0) + 1
            mark = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}
            text = mark[score if colour == 0 else 1 - score]
            print(f"game {done}/{len(jobs)}: {names[0]} - {names[1]} {text} ({termination})",
                  flush=True)
            if board is not None:
                game = chess.pgn.Game.from_board(board)
                game.headers.update({"Event": "ChessPI match", "White": names[0],
                                     "Black": names[1], "Result": text,
                                     "Termination": termination, "Round": str(done)})
                games_out.append(game)
    finished.set()
    # The engines' reader threads keep the interpreter alive until every engine has quit.
    for engine in opened:
        try:
            engine.quit()
        except Exception:
            pass

    if args.pgn:
        with open(args.pgn, "w", encoding="utf-8") as f:
            for game in games_out:
                print(game, file=f, end="\n\n")

    summary = {"engine": first[0], "tc": args.tc, "opponents": {}}
    if args.opponent_tc:
        summary["opponent_tc"] = args.opponent_tc
    for o, spec in enumerate(opponents):
        scores = [results[j] for j in jobs if j[0] == o and j in results]
        wins, draws = scores.count(1.0), scores.count(0.5)
        losses = len(scores) - wins - draws
        pair_scores = [results[(o, p, 0)] + results[(o, p, 1)] for p in range(pairs)
                       if (o, p, 0) in results and (o, p, 1) in results]
        penta = [sum(1 for s in pair_scores if abs(s - k / 2) < 1e-9) for k in range(5)]
        elo, margin = pair_interval(pair_scores)
        score = (wins + draws / 2) / len(scores) if scores else 0.0
        print(f"{first[0]} vs {spec[0]}: +{wins} ={draws} -{losses}, score {score:.3f}, "
              f"Elo {elo:+.0f} ± {margin:.0f} (pairs {penta[0]}/{penta[1]}/{penta[2]}/"
              f"{penta[3]}/{penta[4]})")
        summary["opponents"][spec[0]] = {"wins": wins, "draws": draws, "losses": losses,
                                         "score": round(score, 4), "elo": round(elo, 1),
                                         "margin": round(margin, 1), "pentanomial": penta}
    load_end = os.getloadavg()
    summary["faults"] = faults
    summary["load_average"] = [round(load_start[0], 2), round(load_end[0], 2)]
    during = ""
    if loads:
        summary["load_during"] = {"mean": round(sum(loads) / len(loads), 2),
                                  "max": round(max(loads), 2)}
        during = f", during the games mean {sum(loads) / len(loads):.2f} max {max(loads):.2f}"
    print(f"faults: {faults or 'none'}; load average {load_end[0]:.2f} at the end{during}")
    print("JSON " + json.dumps(summary))


if __name__ == "__main__":
    main()
