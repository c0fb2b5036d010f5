#!/usr/bin/env python3
"""Builds engine/tests/data/perft_suite.epd: a few hundred positions with perft counts.

Positions come from seeded random games (python-chess picks the moves, biased towards
captures, checks and promotions so the special moves are common) plus hand-picked tricky
positions. The counts come from Stockfish's `go perft`, an independent move generator.

Needs: pip install chess; apt-get install stockfish. Rerun only to extend the suite.
"""
import random
import subprocess
import sys

import chess

STOCKFISH = "/usr/games/stockfish"
TARGET = 300
MAX_LEAVES = 3_000_000

TRICKY = [
    # en passant with the capturing pawn pinned along the rank (discovered check)
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "8/8/3k4/3p4/8/8/3R4/3K4 w - - 0 1",
    # en passant that resolves a check by capturing the checking pawn
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    # en passant pinned on the diagonal
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "4k3/8/8/8/2pP4/8/B7/4K3 b - d3 0 1",
    # castling through / out of / into check, rook attacked only
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/2R1K2R b Kkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "4k2r/6K1/8/8/8/8/8/8 w k - 0 1",
    "r3k3/1K6/8/8/8/8/8/8 w q - 0 1",
    # promotions, with and without captures and checks
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    # double check, stalemate, checkmate
    "3k4/3pp3/8/8/8/8/8/R2QK2R w KQ - 0 1",
    "8/8/8/8/8/8/1k6/R2K4 b - - 0 1",
    "k7/8/1QK5/8/8/8/8/8 b - - 0 1",
    "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/p6p/8/B7/1pp1p3/3b4/P6P/R3K2R w KQkq - 0 1",
    "8/5p2/8/2k3P1/p3K3/8/1P6/8 b - - 0 1",
    "r3k2r/pb3p2/5npp/n2p4/1p1PPB2/6P1/P2N1PBP/R3K2R b KQkq - 0 1",
]


def stockfish_perft(proc, fen, depth):
    proc.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("stockfish exited")
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])


def random_positions(rng, count):
    out = []
    while len(out) < count:
        board = chess.Board()
        length = rng.randint(10, 160)
        for _ in range(length):
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [m for m in moves if board.is_capture(m) or m.promotion or board.gives_check(m) or board.is_castling(m)]
            pick = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves)
            board.push(pick)
            if board.is_game_over():
                break
            if rng.random() < 0.08:
                out.append(board.fen(en_passant="fen"))
        if not board.is_game_over():
            out.append(board.fen(en_passant="fen"))
    return out


def main():
    rng = random.Random(20261122)
    fens = TRICKY + random_positions(rng, TARGET)
    fens = list(dict.fromkeys(fens))[:TARGET]
    proc = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = []
    for fen in fens:
        counts = []
        for depth in range(1, 7):
            n = stockfish_perft(proc, fen, depth)
            counts.append(n)
            if n > MAX_LEAVES // 30 or n == 0:
                break
        fields = " ;".join(f"D{d} {n}" for d, n in enumerate(counts, 1))
        lines.append(f"{fen} ;{fields}")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    out = sys.argv[1] if len(sys.argv) > 1 else "engine/tests/data/perft_suite.epd"
    with open(out, "w") as f:
        f.write("# FEN ;D<depth> <leaf count> ... — counts from Stockfish 15.1 `go perft`\n")
        f.write("# Made by tools/make_perft_suite.py\n")
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions, {sum(int(l.rsplit(' ', 1)[1]) for l in lines)} deepest leaves")


if __name__ == "__main__":
    main()
