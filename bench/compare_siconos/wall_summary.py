#!/usr/bin/env python3
"""Combine bench/results/wall_*_as-stored.csv (written by compare_siconos) into one
summary: per-problem table at each tolerance, solved counts, median time ratios
Siconos / fcsn-nsn-ac, and fcsn's time shares. Usage: wall_summary.py CSV... > out.md"""
import csv, statistics, sys
from collections import defaultdict

rows = []
for path in sys.argv[1:]:
    with open(path) as f:
        rows += list(csv.DictReader(f))
at = {}
for r in rows:
    at[(r["problem"], r["solver"], r["tol"])] = r   # later files override earlier ones
limit = 30.0  # --time-limit of the wall runs; a skipped row counts at it
problems = sorted({r["problem"] for r in rows})
known = ["sic-nsn-jm", "sic-nsn-ac", "sic-nsgs-wr", "sic-admm",
         "fcsn-nsn-ac", "fcsn-nsn-jm", "fcsn-default"]
# Siconos runs asked for a tighter own tolerance carry a suffix ("sic-nsn-ac@tol*0.01").
found = sorted({r["solver"] for r in rows})
solvers = ([s for s in found if s.startswith("sic-") and s not in known] +
           [s for s in known if s in found])
tols = sorted({r["tol"] for r in rows}, key=float, reverse=True)

def fnum(x):
    return float(x) if x not in ("", None) else None

def cell(r):
    if r is None: return "—"
    if r["status"] == "skipped-after-timeout": return "skip"
    if r["status"] == "timeout": return "T/O (%s s)" % r["time_median_s"]
    t = float(r["time_median_s"]); it = r["iterations"]
    sw = r["nsgs_sweeps"]
    its = it + ("+%ssw" % sw if sw not in ("", "0", "-1") else "")
    if r["solved"] == "1": return "%.3g · %s ✓" % (t, its)
    # fcsn's criterion (CSV column 'error'); CSVs written before it judged by
    # max(e_nat, e_eq).
    err = float(r["error"]) if r.get("error") else max(float(r["e_nat"]), float(r["e_eq"]))
    return "%.3g · %s ✗ %.1e" % (t, its, err)

out = sys.stdout
out.write("Sources: " + ", ".join("`%s`" % p.split("/")[-1] for p in sys.argv[1:]) + "\n\n")
for tol in tols:
    ps = [p for p in problems if any((p, s, tol) in at for s in solvers)]
    out.write("### tol %s (%d problems)\n\n" % (tol, len(ps)))
    out.write("Cell: wall time (s) · iterations · ✓/✗ (✗ shows the judge's error of the returned point).\n\n")
    out.write("| problem | " + " | ".join(solvers) + " |\n|---|" + "---|" * len(solvers) + "\n")
    for p in ps:
        out.write("| %s | " % p + " | ".join(cell(at.get((p, s, tol))) for s in solvers) + " |\n")
    out.write("\n| solver | solved | run | timeouts/skips |\n|---|---|---|---|\n")
    for s in solvers:
        rs = [at[(p, s, tol)] for p in ps if (p, s, tol) in at]
        k = sum(r["solved"] == "1" for r in rs)
        to = sum(r["status"] in ("timeout", "skipped-after-timeout") for r in rs)
        out.write("| %s | %d | %d | %d |\n" % (s, k, len(rs), to))
    out.write("\nRatios time(Siconos) / time(fcsn), 1 repetition per run. 'both solved': both "
              "judged solved by fcsn's criterion (max(e_nat, e_eq) for CSVs written before it). 'lower-bound median': over the problems fcsn "
              "solved and Siconos either solved or was killed at the time limit, a killed run "
              "counted at the limit (so the true ratio is at least this). 'own stop': over the "
              "problems fcsn solved and Siconos stopped with its own convergence flag (its "
              "error measure is not fcsn's, so its point may miss tol by fcsn's judge). "
              "'all problems': over every problem fcsn solved, each Siconos run at its own "
              "time whatever its outcome (killed at the limit, stopped short of tol, solved): "
              "a Siconos run that did not solve would need at least that time to do so, so this "
              "median is also a lower bound. Counts in parentheses.\n\n")
    out.write("| pair | problems both solved | median wall ratio | min | max | median CPU ratio | "
              "problems with ratio ≥ 10 | Siconos not solved, fcsn solved | "
              "lower-bound median (timeouts at the limit) | median ratio to Siconos' own stop | "
              "all problems: lower-bound median |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|\n")
    for sic in [s for s in solvers if s.startswith("sic-")]:
        for fc in ["fcsn-nsn-ac", "fcsn-default"]:
            if fc not in solvers: continue
            wr, cr, only, lb, own, every = [], [], 0, [], [], []
            for p in ps:
                a, b = at.get((p, sic, tol)), at.get((p, fc, tol))
                if not a or not b: continue
                if b["solved"] == "1":
                    tb = float(b["time_median_s"])
                    if a["solved"] == "1" or a["status"] == "timeout":
                        lb.append(float(a["time_median_s"]) / tb)
                    elif a["status"] == "skipped-after-timeout":  # a looser tol timed out
                        lb.append(limit / tb)
                    if a["status"] == "siconos-converged":
                        own.append(float(a["time_median_s"]) / tb)
                    ta = limit if a["status"] == "skipped-after-timeout" else float(a["time_median_s"])
                    every.append(ta / tb)
                if a["solved"] == "1" and b["solved"] == "1":
                    wr.append(float(a["time_median_s"]) / float(b["time_median_s"]))
                    cr.append(float(a["cpu_median_s"]) / float(b["cpu_median_s"]))
                elif b["solved"] == "1":
                    only += 1
            if not wr and not only: continue
            med = lambda v: "%.2f" % statistics.median(v) if v else "—"
            out.write("| %s / %s | %d | %s | %s | %s | %s | %d | %d | %s (%d) | %s (%d) | %s (%d) |\n" % (
                sic, fc, len(wr), med(wr), "%.2f" % min(wr) if wr else "—",
                "%.2f" % max(wr) if wr else "—", med(cr), sum(x >= 10 for x in wr), only,
                med(lb), len(lb), med(own), len(own), med(every), len(every)))
    out.write("\nTime per iteration (wall s / iterations), median over the runs that returned "
              "(not killed), and the median per-problem ratio Siconos / fcsn-nsn-ac:\n\n"
              "| solver | runs | median s/iteration | median iterations | median ratio of s/iteration "
              "to fcsn-nsn-ac (problems) |\n|---|---|---|---|---|\n")
    def per_it(r):
        if not r or r["status"] in ("timeout", "skipped-after-timeout") or r["iterations"] in ("", "0"):
            return None
        return float(r["time_median_s"]) / int(r["iterations"])
    for s in solvers:
        v = [per_it(at.get((p, s, tol))) for p in ps]
        its = [int(at[(p, s, tol)]["iterations"]) for p in ps
               if per_it(at.get((p, s, tol))) is not None]
        v = [x for x in v if x is not None]
        rat = [per_it(at.get((p, s, tol))) / per_it(at.get((p, "fcsn-nsn-ac", tol))) for p in ps
               if per_it(at.get((p, s, tol))) and per_it(at.get((p, "fcsn-nsn-ac", tol)))]
        if not v: continue
        out.write("| %s | %d | %.3g | %g | %.2f (%d) |\n" % (
            s, len(v), statistics.median(v), statistics.median(its),
            statistics.median(rat) if rat else float("nan"), len(rat)))
    out.write("\nfcsn time shares (per solve: factorization / total, analysis / total; "
              "median over the completed runs):\n\n| solver | runs | median total (s) | "
              "factorization | analysis | rest |\n|---|---|---|---|---|---|\n")
    for s in [s for s in solvers if s.startswith("fcsn")]:
        fs_, as_, ts = [], [], []
        for p in ps:
            r = at.get((p, s, tol))
            if not r or fnum(r["fcsn_total_s"]) in (None, 0.0): continue
            tot = float(r["fcsn_total_s"])
            fs_.append(float(r["fcsn_factorization_s"]) / tot)
            as_.append(float(r["fcsn_analysis_s"]) / tot)
            ts.append(tot)
        if not ts: continue
        mf, ma = statistics.median(fs_), statistics.median(as_)
        out.write("| %s | %d | %.3g | %.0f%% | %.0f%% | %.0f%% |\n" % (
            s, len(ts), statistics.median(ts), 100 * mf, 100 * ma, 100 * (1 - mf - ma)))
    out.write("\n")
