#!/usr/bin/env python3
"""Openings for tools/match.py from the project's own named lines (engine/data/openings/*.tsv),
when no Stockfish is at hand for tools/make_openings.py: a seeded draw of lines of 6 to 12
plies, written as EPD `moves "..."` lines.

    python3 tools/book_openings.py --count 100 --seed 7 > book.epd

The lines are named openings, not balanced by an engine: a pair of games (colours swapped)
from each keeps a match fair.
"""
import argparse
import csv
import glob
import os
import random

import chess


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "engine", "data", "openings")
    lines = []
    for path in sorted(glob.glob(os.path.join(root, "[a-e].tsv"))):
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                board, moves = chess.Board(), []
                for token in row["pgn"].split():
                    if token.endswith("."):
                        continue
                    move = board.parse_san(token)
                    moves.append(move.uci())
                    board.push(move)
                if 6 <= len(moves) <= 12 and not board.is_game_over():
                    lines.append(" ".join(moves))
    lines = sorted(set(lines))
    random.Random(args.seed).shuffle(lines)
    for moves in lines[: args.count]:
        print(f'moves "{moves}"')


if __name__ == "__main__":
    main()
