#!/usr/bin/env python3
"""Reads ChessPI's exported PGN with python-chess (an independent reader) and checks every game
against what ChessPI recorded: number of half-moves, result, final position.

    cargo run --example archive_sample -- /tmp/sample 500
    python3 -m pip install chess
    python3 tools/check_archive_pgn.py /tmp/sample
"""
import glob
import os
import re
import sys

import chess
import chess.pgn

STANDARD_TERMINATIONS = {"abandoned", "adjudication", "death", "emergency", "normal",
                         "rules infraction", "time forfeit", "unterminated"}


def main() -> int:
    out = sys.argv[1]
    [pgn_path] = glob.glob(os.path.join(out, "chesspi-games-*.pgn"))
    with open(os.path.join(out, "expected.tsv")) as f:
        expected = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    bad = 0
    n = 0
    with open(pgn_path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                print(f"game {n + 1}: python-chess errors: {game.errors}")
                bad += 1
            board = game.end().board()
            plies, result, fen = expected[n]
            got = (len(list(game.mainline_moves())), game.headers.get("Result"), board.fen())
            if got != (int(plies), result, fen):
                print(f"game {n + 1}: expected {(plies, result, fen)}, python-chess read {got}")
                bad += 1
            for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
                if tag not in game.headers:
                    print(f"game {n + 1}: no {tag} tag")
                    bad += 1
            # PGN standard 9.8.1, and its date form.
            termination = game.headers.get("Termination")
            if termination is not None and termination not in STANDARD_TERMINATIONS:
                print(f"game {n + 1}: Termination {termination!r} is not a standard value")
                bad += 1
            date = game.headers.get("Date", "")
            if not re.fullmatch(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)", date):
                print(f"game {n + 1}: Date {date!r} is not YYYY.MM.DD")
                bad += 1
            n += 1
    if n != len(expected):
        print(f"python-chess read {n} games, ChessPI wrote {len(expected)}")
        bad += 1
    print(f"{n} games read by python-chess {chess.__version__}; {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
