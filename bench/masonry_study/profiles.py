#!/usr/bin/python3
"""Dolan-More performance profiles of the masonry-wall study (masonry_wall.md §8).

Reads the CSV written by masonry_study (one row per problem, solver, precision)
and writes, into OUT_DIR:
  profiles_time.png, profiles_flops.png   one panel per precision, like the
                                          paper's Figure 3
  summary.md                              solved counts, median speed-ups of the
                                          Newton methods over the NSGS methods

  profiles.py [--out OUT_DIR] [--tau-max 100] [--n-problems N] CSV [CSV ...] [--long LONG.csv ...]

--long also writes nsgs_long_summary.md: per-problem NSGS-AC / NSN-AC cost ratios of the
long-limit runs.

n_p is the number of distinct problems in the CSV (or --n-problems); problems
no solver solves stay in n_p. A run counts as solved at precision p when its
history reached fcsn's criterion max(e_cone, e_dual, e_comp, e_eq) <= p (runs
made before 2026-11-23: e_nat <= p and e_eq <= p) within the time limit; otherwise its
cost is +inf.
"""
import argparse
import collections
import csv
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

NEWTON = ["NSN-AC", "NSN-JM", "NSN-NM", "NSN-FB", "NSN-AC-HYBRID", "default"]
NSGS = ["NSGS-AC", "NSGS-FP-VI-UPK"]
# The paper's six methods (§1.2); NSN-FB and fcsn's default are extra.
PAPER_NEWTON = ["NSN-AC", "NSN-JM", "NSN-NM", "NSN-AC-HYBRID"]
STYLE = {
    "NSN-AC": ("tab:blue", "-"),
    "NSN-JM": ("tab:orange", "-"),
    "NSN-NM": ("tab:green", "-"),
    "NSN-FB": ("tab:olive", "-."),
    "NSN-AC-HYBRID": ("tab:red", "-"),
    "default": ("black", ":"),
    "NSGS-AC": ("tab:purple", "--"),
    "NSGS-FP-VI-UPK": ("tab:brown", "--"),
}


def rows(paths):
    for path in paths:
        with open(path) as f:
            yield from csv.DictReader(f)


def load(paths):
    cost = {"time": collections.defaultdict(dict), "flops": collections.defaultdict(dict)}
    # Cost spent until the run stopped (time limit or failure), for unreached precisions.
    spent = {"time": collections.defaultdict(dict), "flops": collections.defaultdict(dict)}
    problems, solvers, precisions = set(), [], set()
    if True:
        for row in rows(paths):
            p, s, prec = row["problem"], row["solver"], float(row["precision"])
            problems.add(p)
            precisions.add(prec)
            if s not in solvers:
                solvers.append(s)
            ok = row["reached"] == "1"
            cost["time"][(prec, s)][p] = float(row["time_s"]) if ok else math.inf
            cost["flops"][(prec, s)][p] = float(row["flops"]) if ok else math.inf
            spent["time"][(prec, s)][p] = float(row["time_s"])
            spent["flops"][(prec, s)][p] = float(row["flops"])
    # Keep only problems every solver ran (a run cut short leaves a partial problem).
    complete = [p for p in problems
                if all(p in cost["time"][(prec, s)] for prec in precisions for s in solvers)]
    if len(complete) < len(problems):
        print(f"profiles.py: {len(problems) - len(complete)} incomplete problem(s) left out")
    return cost, spent, sorted(complete), solvers, sorted(precisions, reverse=True)


def ratios(cost, prec, solvers, problems):
    """r[s] = array over problems of cost / best cost (inf when unsolved)."""
    table = np.array([[cost[(prec, s)].get(p, math.inf) for p in problems] for s in solvers])
    best = table.min(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = table / best
    r[:, ~np.isfinite(best)] = math.inf
    return {s: r[i] for i, s in enumerate(solvers)}


def plot(cost, measure, problems, solvers, precisions, n_p, tau_max, out):
    ncols = min(3, len(precisions))
    nrows = (len(precisions) + ncols) // ncols  # one spare panel for the legend
    fig, grid = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 3.8 * nrows), squeeze=False)
    panels = list(grid.flat)
    axes = panels[:len(precisions)]
    taus = np.logspace(0, math.log10(tau_max), 600)
    for ax, prec in zip(axes, precisions):
        r = ratios(cost, prec, solvers, problems)
        for s in solvers:
            rho = [(np.count_nonzero(r[s] <= t)) / n_p for t in taus]
            color, ls = STYLE.get(s, (None, "-"))
            ax.step(taus, rho, where="post", label=s, color=color, linestyle=ls, lw=1.6)
        ax.set_xscale("log")
        ax.set_xlim(1, tau_max)
        ax.set_ylim(0, 1.02)
        ax.set_title(f"precision {prec:.0e}")
        ax.set_xlabel(r"$\tau$")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel(r"$\rho_s(\tau)$  (" + measure + ")")
    handles, labels = axes[0].get_legend_handles_labels()
    for ax in panels[len(precisions):]:
        ax.axis("off")
    panels[-1].legend(handles, labels, loc="center", fontsize=10)
    fig.suptitle(f"Masonry wall, {n_p} problems: performance profiles, cost = {measure}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def median_speedup(cost, prec, fast, slow, problems):
    """Median over problems both groups solve of best(slow) / best(fast)."""
    values = []
    for p in problems:
        f = min(cost[(prec, s)].get(p, math.inf) for s in fast)
        g = min(cost[(prec, s)].get(p, math.inf) for s in slow)
        if math.isfinite(f) and math.isfinite(g) and f > 0:
            values.append(g / f)
    if not values:
        return None, 0
    return float(np.median(values)), len(values)


def censored_speedup(cost, spent, prec, fast, slow, problems):
    """Lower bound of the speed-up where the fast group solves: median over those problems of
    (best slow cost if solved, else the least cost a slow method spent before it stopped) /
    best fast cost. Returns (median, problems, of which censored)."""
    values, censored = [], 0
    for p in problems:
        f = min(cost[(prec, s)].get(p, math.inf) for s in fast)
        if not math.isfinite(f) or f <= 0:
            continue
        g = min(cost[(prec, s)].get(p, math.inf) for s in slow)
        if not math.isfinite(g):
            g = min(spent[(prec, s)].get(p, math.inf) for s in slow)
            censored += 1
        values.append(g / f)
    if not values:
        return None, 0, 0
    return float(np.median(values)), len(values), censored


def per_pair_speedup(cost, prec, a, b, problems):
    values = []
    for p in problems:
        x, y = cost[(prec, a)].get(p, math.inf), cost[(prec, b)].get(p, math.inf)
        if math.isfinite(x) and math.isfinite(y) and x > 0:
            values.append(y / x)
    return (float(np.median(values)), len(values)) if values else (None, 0)


def fmt(x, n):
    return "-" if x is None else f"{x:.1f}× ({n})"


def long_runs_table(paths, out):
    """Per-problem NSGS / NSN-AC cost ratios from long-limit runs (masonry_study --solvers
    NSN-AC,NSGS-AC[,NSGS-FP-VI-UPK]), with '>' where the NSGS run did not get there before its
    limit."""
    data = collections.defaultdict(dict)
    for row in rows(paths):
        data[(row["problem"], float(row["precision"]))][row["solver"]] = row
    problems = sorted({p for p, _ in data}, key=lambda p: int(p.rsplit("-", 1)[1]))
    precisions = sorted({q for _, q in data}, reverse=True)
    present = {s for d in data.values() for s in d}
    lines = ["| problem | NSGS method / NSN-AC | measure | "
             + " | ".join(f"{q:.0e}" for q in precisions) + " |",
             "|---|---|---|" + "---|" * len(precisions)]
    for p in problems:
        for slow in [s for s in NSGS if s in present]:
            for measure, key in (("time", "time_s"), ("flops", "flops")):
                cells = []
                for q in precisions:
                    d = data[(p, q)]
                    if "NSN-AC" not in d or slow not in d or d["NSN-AC"]["reached"] != "1":
                        cells.append("-")
                        continue
                    ratio = float(d[slow][key]) / float(d["NSN-AC"][key])
                    prefix = "" if d[slow]["reached"] == "1" else "> "
                    cells.append(f"{prefix}{ratio:.1f}×")
                lines.append(f"| {p} | {slow} | {measure} | " + " | ".join(cells) + " |")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+", help="one or more CSVs of masonry_study (concatenated)")
    ap.add_argument("--out", default=".")
    ap.add_argument("--tau-max", type=float, default=100.0)
    ap.add_argument("--n-problems", type=int, default=0)
    ap.add_argument("--long", nargs="+", default=[],
                    help="CSVs of long-limit NSN-AC/NSGS-AC runs: write nsgs_long_summary.md")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.long:
        long_runs_table(args.long, os.path.join(args.out, "nsgs_long_summary.md"))
    cost, spent, problems, solvers, precisions = load(args.csv)
    n_p = args.n_problems or len(problems)
    for measure in ("time", "flops"):
        plot(cost[measure], measure, problems, solvers, precisions, n_p, args.tau_max,
             os.path.join(args.out, f"profiles_{measure}.png"))

    newton = [s for s in solvers if s in NEWTON]
    paper_newton = [s for s in solvers if s in PAPER_NEWTON]
    nsgs = [s for s in solvers if s in NSGS]
    sources = ", ".join("`" + os.path.basename(c) + "`" for c in args.csv)
    lines = [f"# Masonry-wall study: summary ({n_p} problems, from {sources})", ""]
    lines += ["## Solved problems per solver and precision", ""]
    lines += ["| solver | " + " | ".join(f"{p:.0e}" for p in precisions) + " |"]
    lines += ["|---|" + "---|" * len(precisions)]
    for s in solvers:
        counts = [sum(math.isfinite(cost["time"][(p, s)].get(q, math.inf)) for q in problems)
                  for p in precisions]
        lines += [f"| {s} | " + " | ".join(f"{c}/{n_p}" for c in counts) + " |"]
    lines += ["", "## Median speed-up of the Newton methods over the NSGS methods", "",
              "Per problem: cost of the best NSGS method / cost of the best Newton method, median over "
              "the problems both groups solve (their number in parentheses). Paper (flops): ~4× at "
              "1e-3, ~20× at 1e-4, ~40× at 1e-6.", ""]
    header = "| measure | comparison | " + " | ".join(f"{p:.0e}" for p in precisions) + " |"
    lines += [header, "|---|---|" + "---|" * len(precisions)]
    groups = [("best of the paper's Newton methods (NSN-AC/JM/NM/AC-HYBRID) vs best NSGS",
               paper_newton, nsgs)]
    if set(newton) != set(paper_newton):
        groups.append(("best of all Newton configurations (incl. NSN-FB, default) vs best NSGS",
                       newton, nsgs))
    pairs = [("NSN-AC", "NSGS-AC"), ("NSN-AC-HYBRID", "NSGS-AC"), ("NSN-AC", "NSGS-FP-VI-UPK")]
    for measure in ("time", "flops"):
        for label, fast, slow in groups:
            if not fast or not slow:
                continue
            cells = [fmt(*median_speedup(cost[measure], p, fast, slow, problems)) for p in precisions]
            lines += [f"| {measure} | {label} | " + " | ".join(cells) + " |"]
        for a, b in pairs:
            if a in solvers and b in solvers:
                cells = [fmt(*per_pair_speedup(cost[measure], p, a, b, problems)) for p in precisions]
                lines += [f"| {measure} | {b} / {a} | " + " | ".join(cells) + " |"]
    lines += ["", "### Lower bounds where NSGS did not reach the precision", "",
              "Median over the problems the Newton group solves of (best NSGS cost, or, when no "
              "NSGS method reached the precision, the least cost an NSGS run spent before the time "
              "limit stopped it) / best Newton cost: a lower bound of the speed-up. In parentheses: "
              "problems, of which censored (NSGS unsolved).", ""]
    lines += [header, "|---|---|" + "---|" * len(precisions)]
    for measure in ("time", "flops"):
        for label, fast, slow in groups[:1]:
            if not fast or not slow:
                continue
            cells = []
            for p in precisions:
                v, n, c = censored_speedup(cost[measure], spent[measure], p, fast, slow, problems)
                cells.append("-" if v is None else f"≥ {v:.1f}× ({n}, {c})")
            lines += [f"| {measure} | {label} | " + " | ".join(cells) + " |"]
    lines += ["", "## Median cost per solver (solved runs only)", ""]
    lines += ["| solver | measure | " + " | ".join(f"{p:.0e}" for p in precisions) + " |"]
    lines += ["|---|---|" + "---|" * len(precisions)]
    for s in solvers:
        for measure, unit in (("time", "s"), ("flops", "flop")):
            cells = []
            for p in precisions:
                v = [c for c in cost[measure][(p, s)].values() if math.isfinite(c)]
                cells.append(f"{np.median(v):.3g}" if v else "-")
            lines += [f"| {s} | {measure} [{unit}] | " + " | ".join(cells) + " |"]
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
