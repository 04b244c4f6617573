#!/usr/bin/env python3
"""A picture of a masonry_wall run (its --log CSV): Newton iterations per step
and the sliding contacts of each bed joint, against the step. Used by
scripts/run_main.sh.

Usage: plot_masonry_log.py LOG.csv OUT.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402  (after the backend choice)


def main(log_path, png_path):
    with open(log_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot_masonry_log: {log_path} has no steps")
    steps = [int(r["step"]) for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    top.bar(steps, [int(r["iterations"]) for r in rows], color="tab:blue")
    top.set_ylabel("Newton iterations")
    top.set_title("masonry low wall (coarse): gravity, then shear")
    for joint in ("bottom", "bed12", "bed23", "top", "head"):
        bottom.plot(steps, [int(r[f"{joint}_slip"]) for r in rows],
                    label=joint)
    bottom.set_ylabel("sliding contacts")
    bottom.set_xlabel("time step")
    bottom.legend(loc="upper left", ncol=5, fontsize="small")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    print(f"plot_masonry_log: {png_path}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
