#!/usr/bin/env python3
"""Per-iteration history of `fcsn solve --json` runs (shear steps).

Reads the JSON lines of `fcsn solve FILE... --json` on stdin and prints, per
file, the iterations and, with -v, one row per Newton iteration: the merit
||D G||, the criterion max(e_cone, e_dual, e_comp, e_eq), the statuses of r
(take-off / stick / slip) and the rho boost. Summary line: median, max, mean.

  fcsn solve FILES --tol 1e-8 --warm-start --json [opts] | history.py [-v]
"""
import json
import statistics
import sys


def main():
    verbose = "-v" in sys.argv
    its = []
    for line in sys.stdin:
        d = json.loads(line)
        its.append(d["iterations"])
        name = d["file"].split("/")[-1]
        print("%s %s %d" % (name, d["status"], d["iterations"]))
        if not verbose:
            continue
        for h in d.get("history", []):
            worst = max(h["e_cone"], h["e_dual"], h["e_comp"], h["e_eq"])
            print("  %3d merit %.2e err %.2e open %4d stick %4d slip %4d"
                  " boost %g" % (h["iteration"], h["merit"], worst,
                                h["take_off"], h["stick"], h["slip"],
                                h.get("rho_boost", 1)))
    if its:
        print("median %g max %d mean %.2f n %d" % (
            statistics.median(its), max(its), statistics.mean(its), len(its)))


if __name__ == "__main__":
    main()
