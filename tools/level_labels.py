#!/usr/bin/env python3
"""The levels' Elo labels from the matches of tools/level_labels.sh (issue 49).

Each anchor match gives `anchor rating + the level's Elo difference`; levels 1 and 10, which
no anchor reaches, hang on the chain (level 1 below level 2; level 10 above level 9 through
the engine at a fixed node budget between theirs). A log is named PLAYER-OPPONENT.log. The
anchors' ratings are the ladder's (tools/engines.toml) and, at the low end, Stockfish's
`UCI_Elo`. Prints a Markdown table and the labels for engine/src/level.rs (rounded to 10).

    python3 tools/level_labels.py target/labels
"""

import json
import os
import sys

# Ratings of the anchors on the ladder's scale (CCRL Blitz ±100; tools/engines.toml).
ANCHORS = {"hoichess": 2000, "phalanx": 2450, "sf1350": 1350, "sf1400": 1400,
           "sf1500": 1500, "sf1700": 1700}


def read(path):
    """The summary JSON of one match log, or None while the match has not finished."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        if line.startswith("JSON "):
            return json.loads(line[5:])
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    rows = {}  # (player, opponent) named as in the log's file name PLAYER-OPPONENT.log
    for name in sorted(os.listdir(out)):
        if not name.endswith(".log") or "-" not in name:
            continue
        summary = read(os.path.join(out, name))
        if summary is None:
            continue
        player, opponent = name[:-4].split("-", 1)
        (_, result), = summary["opponents"].items()
        rows[(player, opponent)] = (summary, result)
    # Anchored players first, then the chain: a player one match away from a measured one.
    measured = {a: (float(r), 0.0, "ladder") for a, r in ANCHORS.items()}
    changed = True
    while changed:
        changed = False
        for (player, opponent), (_, r) in rows.items():
            if abs(r["elo"]) >= 2400:
                continue  # a clean sweep measures no difference
            if opponent in measured and player not in measured:
                base, margin, _ = measured[opponent]
                measured[player] = (base + r["elo"], margin + r["margin"], opponent)
                changed = True
            elif player in measured and opponent not in measured:
                base, margin, _ = measured[player]
                measured[opponent] = (base - r["elo"], margin + r["margin"], player)
                changed = True
    print("| player | opponent (rating) | games | W/D/L | score | Elo diff (95 %) "
          "| load start / mean / max / end | player measured |")
    print("|---|---|---|---|---|---|---|---|")
    order = sorted(rows, key=lambda k: (len(k[0]), k[0], k[1]))
    for player, opponent in order:
        s, r = rows[(player, opponent)]
        games = r["wins"] + r["draws"] + r["losses"]
        during = s.get("load_during", {})
        load = (f"{s['load_average'][0]:.2f} / {during.get('mean', float('nan')):.2f} / "
                f"{during.get('max', float('nan')):.2f} / {s['load_average'][1]:.2f}")
        rating = f" ({ANCHORS[opponent]})" if opponent in ANCHORS else ""
        value = measured.get(player)
        shown = f"{value[0]:.0f} ± {value[1]:.0f}" if value else "?"
        print(f"| {player} | {opponent}{rating} | {games} | {r['wins']}/{r['draws']}/"
              f"{r['losses']} | {r['score']:.3f} | {r['elo']:+.0f} ± {r['margin']:.0f} | "
              f"{load} | {shown} |")
    labels = []
    for level in range(1, 11):
        value = measured.get(f"L{level}")
        labels.append("?" if value is None else f"{round(value[0], -1):.0f}")
        if value:
            print(f"level {level}: {value[0]:.0f} ± {value[1]:.0f} (through {value[2]})")
    print("labels:", ", ".join(labels))


if __name__ == "__main__":
    main()
