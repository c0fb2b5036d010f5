#!/usr/bin/env python3
"""How wide Assist's margin should be: from a dump of the tuning half graded by the one
search alone,

    cargo run --release -p chesspi-engine --example assist_agreement -- \
        --half tuning --pieces 400 --settle off --dump assist_tuning.tsv
    python3 tools/assist_margin.py assist_tuning.tsv

prints, for each margin, the share of moves whose loss lies that near the inaccuracy or
mistake edge (5 and 10 win-% points: the moves the coach then judges itself) and the agreement
with the coach if those moves took its verdict. The coach's shifted thresholds alone are shown
for comparison (the best pair on a grid of quarter points).
"""
import csv
import sys

EDGES = (5.0, 10.0)


def grade(loss, t):
    return 0 if loss < t[0] else (1 if loss < t[1] else 2)


def main(path):
    with open(path) as f:
        rows = [
            (float(r["assist_loss"]), int(r["assist_grade"]), int(r["coach_grade"]))
            for r in csv.DictReader(f, delimiter="\t")
        ]
    n = len(rows)
    base = sum(a == c for _, a, c in rows)
    print(f"{n} moves; the one search agrees on {base} = {100 * base / n:.1f} %")
    for margin in (0.5, 1.0, 1.5, 2.0, 3.0):
        near = [
            loss > 0 and any(abs(loss - e) < margin for e in EDGES) for loss, _, _ in rows
        ]
        agree = sum(a == c or m for (_, a, c), m in zip(rows, near))
        print(
            f"margin {margin}: {100 * sum(near) / n:.1f} % of moves judged, "
            f"agreement {100 * agree / n:.1f} %"
        )

    # Rows the mate rules graded keep their grade when the thresholds move.
    def shifted(t):
        return sum(
            (grade(l, t) if a == grade(l, EDGES) else a) == c for l, a, c in rows
        )

    best = max(
        ((a / 4, b / 4) for a in range(8, 61) for b in range(a, 101)), key=shifted
    )
    print(f"thresholds alone, best pair {best}: {100 * shifted(best) / n:.1f} %")


if __name__ == "__main__":
    main(sys.argv[1])
