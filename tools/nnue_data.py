#!/usr/bin/env python3
"""Training positions for the analysis network, labelled by Stockfish.

Plays games from random lichess opening lines with Stockfish at a shallow depth, now and then a
random move (the positions an analysis meets include the ones after blunders), and writes a
random share of the positions, searched deeper, one line each: FEN, Stockfish's score for the side to move in centipawns, and whether its
best move is a capture or the side to move is in check (such positions are not quiet; the
trainer skips them). Games are separate from the agreement sets' (other openings, other seeds).

    python3 tools/nnue_data.py --games 4000 --seed 1 --out /tmp/nnue/a.txt --depth 7
"""

import argparse
import csv
import glob
import os
import random
import subprocess
import sys

import chess

MATE_CP = 3000  # mate scores are written as this, the trainer clamps anyway


class Uci:
    def __init__(self, path, hash_mb):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith(token):
                return line

    def search(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith("info") and " score " in line and "bound" not in line:
                parts = line.split()
                i = parts.index("score")
                kind, value = parts[i + 1], int(parts[i + 2])
                if kind == "cp":
                    score = value
                else:
                    score = MATE_CP if value > 0 else -MATE_CP
            elif line.startswith("bestmove"):
                move = line.split()[1]
                return score, (None if move == "(none)" else move)

    def static_eval(self, fen):
        """Stockfish's static evaluation (its `eval` command) for the side to move, in
        centipawns, or None in check (it has none there)."""
        self.send(f"position fen {fen}")
        self.send("eval")
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith("Final evaluation"):
                parts = line.split()
                if parts[2] == "none":
                    return None
                white = round(float(parts[2]) * 100)
                return white if " w " in fen else -white

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")


def opening_lines(pattern):
    lines = []
    for path in sorted(glob.glob(pattern)):
        with open(path, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                lines.append(row["pgn"])
    return lines


def start_board(line, rng):
    board = chess.Board()
    for token in line.split():
        if token.endswith("."):
            continue
        board.push_san(token)
    # A few random plies off the named line, for positions the book does not hold.
    for _ in range(rng.randint(0, 4)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--depth", type=int, default=8, help="the label's search depth")
    ap.add_argument("--play-depth", type=int, default=4, help="the depth choosing the moves")
    ap.add_argument("--label", choices=["search", "static"], default="search",
                    help="the label: a search to --depth, or Stockfish's static evaluation "
                         "(about 45 times faster; positions chosen as with the search)")
    ap.add_argument("--static-scale", type=float, default=1.15,
                    help="static labels multiplied by this: Stockfish's static evaluation is on a "
                         "smaller scale than its search's centipawns (docs/benchmarks/history.md)")
    ap.add_argument("--sample", type=float, default=0.25,
                    help="the share of positions labelled (positions of a game are alike)")
    ap.add_argument("--random-move", type=float, default=0.08)
    ap.add_argument("--max-plies", type=int, default=160)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--fast", action="store_true",
                    help="end a game at a threefold repetition or the 50-move rule as they stand "
                         "instead of when a draw could be claimed (half the script's own CPU went "
                         "to that check; other games than without it)")
    ap.add_argument("--openings", default=os.path.join(
        os.path.dirname(__file__), "..", "engine", "data", "openings", "[a-e].tsv"))
    args = ap.parse_args()

    static = args.label == "static"
    rng = random.Random(args.seed)
    lines = opening_lines(args.openings)
    sf = Uci(args.engine, 16)
    written = 0
    with open(args.out, "a") as out:
        for game in range(args.games):
            board = start_board(rng.choice(lines), rng)
            sf.new_game()
            decided = 0
            for _ in range(args.max_plies):
                if args.fast:
                    over = (board.is_game_over() or board.halfmove_clock >= 100
                            or board.is_repetition(3))
                else:
                    over = board.is_game_over(claim_draw=True)
                if over:
                    break
                fen = board.fen()
                # (No draw when every position is labelled: earlier data sets stay reproducible.)
                labelled = args.sample >= 1 or rng.random() < args.sample
                depth = args.depth if labelled and not static else args.play_depth
                score, best = sf.search(fen, depth)
                if best is None or score is None:
                    break
                mv = chess.Move.from_uci(best)
                label = score
                if labelled and static:
                    # The played move's search still says whether the position is quiet.
                    label = None if board.is_check() else sf.static_eval(fen)
                    if label is not None:
                        # Rounded half away from zero, as the committed network's data were.
                        scaled = int(abs(label) * args.static_scale + 0.5)
                        label = scaled if label >= 0 else -scaled
                if labelled and label is not None:
                    noisy = board.is_check() or board.is_capture(mv) or mv.promotion is not None
                    out.write(f"{fen};{label};{int(noisy)}\n")
                    written += 1
                # Lopsided positions are analysed too, but not for long.
                decided = decided + 1 if abs(score) > 1500 else 0
                if decided > 6:
                    break
                if rng.random() < args.random_move:
                    mv = rng.choice(list(board.legal_moves))
                board.push(mv)
            out.flush()
            if game % 50 == 0:
                print(f"game {game}: {written} positions", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
