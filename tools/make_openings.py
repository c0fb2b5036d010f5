#!/usr/bin/env python3
"""Writes a set of balanced opening positions (EPD) for engine-vs-engine matches.

Each position is a few random legal moves from the start that Stockfish scores close to
equal, so a match between two versions of the engine plays many different games instead of
repeating the match runner's 16 built-in openings. The seed makes the set reproducible.

    python3 tools/make_openings.py --count 200 --seed 7 > /tmp/openings.epd

Needs python-chess (`pip install chess`) and stockfish (`apt-get install stockfish`).
"""

import argparse
import random
import sys

import chess
import chess.engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plies", type=int, default=8, help="random plies from the start")
    parser.add_argument("--max-cp", type=int, default=60, help="largest |score| kept")
    parser.add_argument("--depth", type=int, default=12, help="stockfish depth of the check")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seen = set()
    kept = 0
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as engine:
        while kept < args.count:
            board = chess.Board()
            for _ in range(args.plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over() or board.epd() in seen:
                continue
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].white()
            if score.is_mate() or abs(score.score()) > args.max_cp:
                continue
            seen.add(board.epd())
            moves = " ".join(m.uci() for m in board.move_stack)
            print(f'{board.epd()} moves "{moves}";')
            kept += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
