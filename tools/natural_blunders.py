#!/usr/bin/env python3
"""Natural blunders: an evaluation set for the move coach from games between other engines.

The coach's own sets (docs/benchmarks/agreement/) hold mostly planted random blunders, which
are easy to see. This tool makes the blunders that engines of about 1900-2900 make by
themselves (issue 49):

1. `play`: games between two of Debian's engines (hoichess, sjeng, phalanx, glaurung,
   toga2; never ChessPI) at a short clock (default 10+0.1), each from a named opening of
   engine/data/openings/ cut after a few plies; one PGN per run, appended game by game.
   After each game, `label` runs on it.
2. `label`: Stockfish 15.1 (one thread, 64 MB hash, niced) scores every position after the
   opening at depth >= 16 (cached in OUT/reference.json, the format of
   tools/analysis_agreement.py). A move's loss is the mover's win-% before less after
   (lichess's curve as in analysis_agreement.py; 0 when it is Stockfish's best). A move that
   throws away a forced mate (mate for the mover before; after, no mate and at most +1.00)
   is a blunder whatever the win-% says. Labelling stops once a game is decided (|score|
   >= 10.00, or a mate, for 8 plies running).
3. `select`: blunders (loss >= 15, or a mate thrown away) and good moves (loss <= 2, no mate
   score, |score| <= 6.00 before), split ONCE into a tuning half and a held-out half by a
   hash of the game (no game feeds both halves), then as many good moves as blunders drawn
   per half (seeded). Writes DEST/tuning.jsonl, DEST/heldout.jsonl and DEST/games.pgn.
   Never tune on the held-out half.

    nice -n 19 python3 tools/natural_blunders.py play --games 40 --seed 1 --out /tmp/nb1
    python3 tools/natural_blunders.py select /tmp/nb1 /tmp/nb2 --dest docs/benchmarks/natural
    python3 tools/coach_agreement.py --jsonl docs/benchmarks/natural/heldout.jsonl

Needs python-chess and Debian's engines (`apt-get install stockfish phalanx hoichess
sjeng toga2 glaurung`, `pip install chess`).
"""

import argparse
import csv
import glob
import hashlib
import json
import os
import random
import sys
import time

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_agreement as aa  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "engine/data/openings")
NICE = ["nice", "-n", "19"]
# name: (argv, protocol, options, approximate rating from the engines' ladder)
# Fairy-Max (~1925) is not among them: it lacks xboard's setboard, which python-chess needs.
ENGINES = {
    "hoichess": (["/usr/games/hoichess", "--norc", "--initcmd", "hash size 16M", "-x", "on"],
                 "xboard", {}, 2000),
    "sjeng": (["/usr/games/sjeng"], "xboard", {}, 2300),
    "phalanx": (["/usr/games/phalanx", "-b-", "-l-"], "xboard", {"memory": 16}, 2450),
    "glaurung": (["/usr/games/glaurung"], "uci",
                 {"Threads": 1, "Hash": 16, "OwnBook": False}, 2800),
    "toga2": (["/usr/games/toga2"], "uci",
              {"Number of Threads": 1, "Hash": 16, "OwnBook": False}, 2900),
}
BLUNDER_LOSS, GOOD_LOSS = 15.0, 2.0


# --- 1. Games ---------------------------------------------------------------------------------

def openings():
    """Every named line of the project's opening table, as SAN lists."""
    lines = []
    for path in sorted(glob.glob(os.path.join(OPENINGS, "[a-e].tsv"))):
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                sans = [t for t in row["pgn"].split() if not t.endswith(".")]
                if len(sans) >= 4:
                    lines.append((row["name"], sans))
    return lines


def start(name):
    argv, protocol, options, _ = ENGINES[name]
    popen = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else \
        chess.engine.SimpleEngine.popen_xboard
    engine = popen(NICE + argv)
    engine.configure({k: v for k, v in options.items() if k in engine.options})
    return engine


def play_game(rng, lines, names, base, inc, max_plies):
    """One game between the engines `names` (White, Black) on a clock of base+inc seconds."""
    opening, sans = rng.choice(lines)
    cut = rng.randint(4, min(10, len(sans)))
    board = chess.Board()
    for san in sans[:cut]:
        board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    game.headers.update({"Event": "natural blunders", "White": names[0], "Black": names[1],
                         "Opening": opening, "OpeningPlies": str(cut),
                         "TimeControl": f"{base:g}+{inc:g}"})
    engines = {chess.WHITE: start(names[0]), chess.BLACK: start(names[1])}
    clock = {chess.WHITE: base, chess.BLACK: base}
    node, key, result = game.end(), object(), None
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            side = board.turn
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            began = time.monotonic()
            move = engines[side].play(board, limit, game=key).move
            clock[side] -= time.monotonic() - began
            if move is None or move not in board.legal_moves:
                result, why = ("0-1" if side else "1-0"), f"illegal move {move}"
                break
            if clock[side] < 0:
                result, why = ("0-1" if side else "1-0"), "time forfeit"
                break
            clock[side] += inc
            node = node.add_variation(move)
            board.push(move)
    finally:
        for engine in engines.values():
            engine.quit()
    if result is None:
        result = board.result(claim_draw=True)
        why = "ply limit" if result == "*" else "normal"
    game.headers["Result"], game.headers["Termination"] = result, why
    return game


def play(args):
    os.makedirs(args.out, exist_ok=True)
    lines = openings()
    path = os.path.join(args.out, "games.pgn")
    done = len(read_games(path)) if os.path.exists(path) else 0
    for number in range(done + 1, args.games + 1):
        rng = random.Random(f"{args.seed} {number}")  # a resumed run plays the same games
        names = rng.sample(sorted(ENGINES), 2)
        try:
            game = play_game(rng, lines, names, args.base, args.inc, args.max_plies)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            print(f"game {number}: {names[0]}-{names[1]} failed: {e}", file=sys.stderr)
            continue
        game.headers["Round"] = str(number)
        game.headers["Site"] = f"seed {args.seed}"
        with open(path, "a") as f:
            print(game, file=f, end="\n\n")
        print(f"game {number}: {names[0]}-{names[1]} {game.headers['Result']} "
              f"({game.headers['Termination']}), {len(list(game.mainline_moves()))} plies",
              file=sys.stderr)
        label(args.out, args.depth, [game])


# --- 2. Labels --------------------------------------------------------------------------------

def read_games(path):
    games = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


def positions(game):
    """The boards from the end of the opening on (the engines' own moves)."""
    boards = aa.boards_of(game)
    return boards[int(game.headers.get("OpeningPlies", "0")):]


def decided(entry):
    e = aa.Eval.from_json(entry["eval"])
    return e.cp is None or abs(e.cp) >= 1000


def label(out, depth, games):
    path = os.path.join(out, "reference.json")
    cache = json.load(open(path)) if os.path.exists(path) else {}
    sf = chess.engine.SimpleEngine.popen_uci(NICE + ["/usr/games/stockfish"])
    sf.configure({"Threads": 1, "Hash": 64})
    began, fresh = time.monotonic(), 0
    try:
        for game in games:
            sf.protocol.send_line("ucinewgame")
            run = 0
            for board in positions(game):
                key = f"{board.fen()} d{depth}"
                if key not in cache:
                    over = aa.game_over_eval(board)
                    if over is not None:
                        cache[key] = {"eval": over.to_json(), "best": None}
                    else:
                        info = sf.analyse(board, chess.engine.Limit(depth=depth))
                        pv = info.get("pv") or [None]
                        cache[key] = {"eval": aa.Eval.of_score(info["score"], board).to_json(),
                                      "best": pv[0].uci() if pv[0] else None}
                        fresh += 1
                run = run + 1 if decided(cache[key]) else 0
                if run >= 8:
                    break
    finally:
        sf.quit()
        with open(path + ".tmp", "w") as f:
            json.dump(cache, f)
        os.replace(path + ".tmp", path)
    print(f"labelled {fresh} positions in {time.monotonic() - began:.0f} s", file=sys.stderr)


def labelled_moves(game, cache, depth, tag):
    """Every engine move of `game` with both of Stockfish's scores, its loss and class."""
    boards, moves = positions(game), list(game.mainline_moves())
    first = int(game.headers.get("OpeningPlies", "0"))
    out = []
    for i, board in enumerate(boards[:-1]):
        here = cache.get(f"{board.fen()} d{depth}")
        there = cache.get(f"{boards[i + 1].fen()} d{depth}")
        if here is None or there is None:
            break  # labelling stopped: the game was decided
        move, mover = moves[first + i], board.turn
        before, after = aa.Eval.from_json(here["eval"]), aa.Eval.from_json(there["eval"])
        best = here["best"] == move.uci()
        loss = 0.0 if best else aa.win_percent(before.cp_for(mover)) - \
            aa.win_percent(after.cp_for(mover))
        had, has = before.mate_for(mover), after.mate_for(mover)
        thrown = had is not None and had > 0 and (has is None or has < 0) and \
            after.cp_for(mover) <= 100
        out.append({"fen": board.fen(), "move": move.uci(), "san": board.san(move),
                    "sf_before": here["eval"], "sf_after": there["eval"],
                    "sf_best": here["best"], "loss": round(loss, 2), "mate_thrown": thrown,
                    "game": tag, "ply": first + i + 1,
                    "white": game.headers["White"], "black": game.headers["Black"],
                    "mover": game.headers["White" if mover else "Black"]})
    return out


# --- 3. The two halves ------------------------------------------------------------------------

def half_of(tag):
    return "heldout" if hashlib.sha256(tag.encode()).digest()[0] & 1 else "tuning"


def select(args):
    halves = {"tuning": {"blunder": [], "good": []}, "heldout": {"blunder": [], "good": []}}
    all_games = []
    for out in args.runs:
        cache = json.load(open(os.path.join(out, "reference.json")))
        for game in read_games(os.path.join(out, "games.pgn")):
            tag = f"{game.headers['Site']} game {game.headers['Round']}"
            all_games.append(game)
            for row in labelled_moves(game, cache, args.depth, tag):
                before = aa.Eval.from_json(row["sf_before"])
                if row["loss"] >= BLUNDER_LOSS or row["mate_thrown"]:
                    row["kind"] = "blunder"
                elif row["loss"] <= GOOD_LOSS and before.cp is not None and \
                        aa.Eval.from_json(row["sf_after"]).cp is not None and \
                        abs(before.cp) <= 600:
                    row["kind"] = "good"
                else:
                    continue
                row["half"] = half_of(tag)
                halves[row["half"]][row["kind"]].append(row)
    os.makedirs(args.dest, exist_ok=True)
    rng = random.Random(args.seed)
    for name, rows in halves.items():
        good = rng.sample(rows["good"], min(len(rows["blunder"]), len(rows["good"])))
        chosen = rows["blunder"] + sorted(good, key=lambda r: (r["game"], r["ply"]))
        with open(os.path.join(args.dest, f"{name}.jsonl"), "w") as f:
            for row in chosen:
                print(json.dumps(row), file=f)
        games = len({r["game"] for r in rows["blunder"] + rows["good"]})
        print(f"{name}: {len(rows['blunder'])} blunders "
              f"({sum(r['mate_thrown'] for r in rows['blunder'])} mates thrown away), "
              f"{len(good)} good moves of {len(rows['good'])}, from {games} games")
    with open(os.path.join(args.dest, "games.pgn"), "w") as f:
        for game in all_games:
            print(game, file=f, end="\n\n")
    print(f"{len(all_games)} games in {os.path.join(args.dest, 'games.pgn')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play and label games")
    p.add_argument("--games", type=int, default=40, help="games in OUT in all")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="work directory (games.pgn, reference.json)")
    p.add_argument("--base", type=float, default=10.0, help="seconds on each clock")
    p.add_argument("--inc", type=float, default=0.1, help="increment per move, seconds")
    p.add_argument("--max-plies", type=int, default=200)
    p.add_argument("--depth", type=int, default=16, help="Stockfish's labelling depth")
    lab = sub.add_parser("label", help="(re)label the games of OUT")
    lab.add_argument("--out", required=True)
    lab.add_argument("--depth", type=int, default=16)
    s = sub.add_parser("select", help="write the two halves")
    s.add_argument("runs", nargs="+", help="work directories of `play`")
    s.add_argument("--dest", default=os.path.join(ROOT, "docs/benchmarks/natural"))
    s.add_argument("--depth", type=int, default=16)
    s.add_argument("--seed", type=int, default=49, help="which good moves are drawn")
    args = parser.parse_args()
    if args.depth < 16:
        sys.exit("the labels need Stockfish at depth >= 16")
    if args.command == "play":
        play(args)
    elif args.command == "label":
        label(args.out, args.depth, read_games(os.path.join(args.out, "games.pgn")))
    else:
        select(args)


if __name__ == "__main__":
    main()
