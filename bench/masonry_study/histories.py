#!/usr/bin/python3
"""Convergence histories of the masonry-wall study on one problem.

Reads the per-iteration CSV of `masonry_study --history-csv` and draws, for
every solver on the chosen problem, fcsn's criterion max(e_cone, e_dual,
e_comp, e_eq) (shared/docs/formulations.md §9.1) against the iteration count
(left) and against the wall time since the start of the solve (right).

An "iteration" is a Newton iteration or an NSGS sweep (NSGS records its error
only every few sweeps, so its curve has one point per check); the hybrid's
warm sweeps are drawn as sweeps and its Newton iterations continue the count.

  histories.py [--problem NAME] [--out histories.png] HISTORY.csv
"""
import argparse
import collections
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PRECISIONS = [1e-2, 1e-3, 1e-4, 1e-6, 1e-8]


def read(path, problem):
    """{solver: [(count, error, seconds)]} for one problem (the first if None)."""
    curves = collections.OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if problem is None:
                problem = row["problem"]
            if row["problem"] != problem:
                continue
            curves.setdefault(row["solver"], []).append(
                (row["phase"], int(row["iteration"]), float(row["error"]),
                 float(row["seconds"])))
    return problem, curves


def counts(curve):
    """x values: sweeps for NSGS records, then Newton iterations after them."""
    xs = []
    last_sweep = 0
    for phase, iteration, _, _ in curve:
        if phase == "nsgs":
            last_sweep = iteration
            xs.append(iteration)
        else:
            xs.append(last_sweep + iteration)
    return xs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("history_csv")
    parser.add_argument("--problem", default=None)
    parser.add_argument("--out", default="histories.png")
    args = parser.parse_args()
    problem, curves = read(args.history_csv, args.problem)
    if not curves:
        raise SystemExit(f"histories.py: no records for {problem}")
    fig, (ax_it, ax_t) = plt.subplots(1, 2, figsize=(12, 4.8))
    for solver, curve in curves.items():
        errors = [max(e, 1e-17) for _, _, e, _ in curve]
        seconds = [t for _, _, _, t in curve]
        # "default" often retraces another configuration: dashed, on top.
        style = dict(marker=".", label=solver,
                     linestyle="--" if solver == "default" else "-",
                     zorder=3 if solver == "default" else 2)
        ax_it.semilogy(counts(curve), errors, **style)
        ax_t.semilogy(seconds, errors, **style)
    for ax in (ax_it, ax_t):
        for p in PRECISIONS:
            ax.axhline(p, color="0.85", linewidth=0.8, zorder=0)
        ax.set_ylabel("max(e_cone, e_dual, e_comp, e_eq)")
        ax.grid(True, which="major", alpha=0.3)
    ax_it.set_xscale("symlog", linthresh=10)
    ax_it.set_xlim(left=0)
    ax_it.set_xlabel("Newton iteration / NSGS sweep (symlog)")
    ax_t.set_xscale("log")
    ax_t.set_xlabel("wall time since the start of the solve (s)")
    ax_t.legend(fontsize=8)
    fig.suptitle(f"{problem}: convergence of each method (§9.1 criterion)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"histories.py: wrote {args.out} ({len(curves)} solvers, {problem})")


if __name__ == "__main__":
    main()
