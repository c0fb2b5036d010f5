#!/usr/bin/env python3
"""How often a player misses a mate in one, and how often it allows one, in a PGN file.

Used to check that level 1 stays a beginner's level (docs/benchmarks/history.md, "The network
plays"): it should miss and allow mates in one at least as often as before.

    python3 tools/mate_in_one.py games.pgn [--player NAME]

For every move of the named player (every move when no name is given; a match.py PGN of a
level against itself names both sides alike): was a mate in one on the board, and was it
played; after the move, has the opponent a mate in one. Prints the counts and rates; the
last line is JSON. Needs python-chess (`pip install chess`).
"""
import argparse
import json
import sys

import chess
import chess.pgn


def has_mate_in_one(board):
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def count(path, player):
    stats = {"games": 0, "moves": 0, "mate_chances": 0, "mates_missed": 0, "mates_allowed": 0}
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            stats["games"] += 1
            sides = {chess.WHITE: game.headers.get("White"), chess.BLACK: game.headers.get("Black")}
            board = game.board()
            for move in game.mainline_moves():
                mover = board.turn
                if player is None or sides[mover] == player:
                    stats["moves"] += 1
                    if has_mate_in_one(board):
                        stats["mate_chances"] += 1
                        board.push(move)
                        if not board.is_checkmate():
                            stats["mates_missed"] += 1
                    else:
                        board.push(move)
                    if not board.is_game_over() and has_mate_in_one(board):
                        stats["mates_allowed"] += 1
                else:
                    board.push(move)
    return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--player", help="count only this player's moves (PGN White/Black name)")
    args = parser.parse_args()
    try:
        stats = count(args.pgn, args.player)
    except OSError as e:
        sys.exit(f"{args.pgn}: {e}")
    chances, moves = stats["mate_chances"], stats["moves"]
    print(f"{stats['games']} games, {moves} moves counted")
    print(f"mates in one on the board: {chances}, missed {stats['mates_missed']}"
          f" ({100 * stats['mates_missed'] / max(chances, 1):.1f} %)")
    print(f"moves that allow a mate in one: {stats['mates_allowed']}"
          f" ({100 * stats['mates_allowed'] / max(moves, 1):.2f} % of moves,"
          f" {stats['mates_allowed'] / max(stats['games'], 1):.2f} per game)")
    print("JSON " + json.dumps(stats))


if __name__ == "__main__":
    main()
