#!/usr/bin/env python3
"""Cold starts screened in the probe's Newton.

Newton iterations to the §9.1 tolerance from several starting iterates, with
probe.py's Alart-Curnier Newton (split-exact rho x boost 30 never reduced,
full steps) plus fcsn's tail boost (x 30 at the first error below 1e-3).
Results: bench/results/cold_approaching.md.

Usage (use /usr/bin/python3: numpy, scipy, h5py):
  starts.py MODE[,MODE...] FILE...

Modes; every start has v = 0, and r = 0 except at the closed contacts, which
get r_N = 1e3 rho_N ||q_free - w||_inf (the stick piece: Newton's first step
does not depend on the value), q_free = H^T M^-1 f + w:
  zero           none closed
  bonded         the resting contacts (||w_a||_inf <= 1e-10 ||q_free - w||_inf)
  approach       the resting contacts with (q_free)_N < 0
  approach-all   every contact with (q_free)_N < 0 (fcsn's `approaching`)
  union          resting or (q_free)_N < 0
  approach-slip  approach-all, and those whose free flight slides (||q_T|| >
                 mu |q_N|) on the slip piece, r_T = -2 mu r_N q_T / ||q_T||
"""
import sys

import numpy as np
import scipy.sparse.linalg as sla

import probe

TAIL_ERROR = 1e-3  # RhoOptions::tail_error
TAIL_FACTOR = 30.0  # RhoOptions::tail_boost_factor
ROUND_OFF = 1e-10  # kColdStartRoundOff


def iterations(p, v, r, max_iterations=60):
    rho = p.rho.copy()
    tailed = False
    try:
        for k in range(max_iterations):
            e = p.error(v, r)
            if e <= probe.TOL:
                return k
            if not tailed and e < TAIL_ERROR:
                p.rho = p.rho * TAIL_FACTOR
                tailed = True
            G, _, J = p.residual(v, r)
            dv, dr = p.split(sla.splu(J).solve(-G))
            v, r = v + dv, r + dr
        return max_iterations
    finally:
        p.rho = rho


def start(p, mode, q, resting):
    q = q.reshape(p.nc, 3)
    approaching = q[:, 0] < 0
    closed = {
        "zero": np.zeros(p.nc, dtype=bool),
        "bonded": resting,
        "approach": resting & approaching,
        "approach-all": approaching,
        "union": resting | approaching,
        "approach-slip": approaching,
    }[mode]
    r = np.zeros(p.m)
    R = r.reshape(p.nc, 3)
    scale = np.abs(q.ravel() - p.w).max()
    R[closed, 0] = 1e3 * p.rho.reshape(p.nc, 3)[closed, 0] * scale
    if mode == "approach-slip":
        t = np.linalg.norm(q[:, 1:], axis=1)
        slide = closed & (t > p.mu * np.abs(q[:, 0])) & (t > 0)
        R[slide, 1:] = (-2.0 * p.mu[slide] * R[slide, 0] / t[slide])[:, None] \
            * q[slide, 1:]
    return np.zeros(p.n), r


def main(argv):
    modes = argv[1].split(",")
    for path in argv[2:]:
        p = probe.Problem(path)
        q = p.HT @ sla.splu(p.M.tocsc()).solve(p.f) + p.w
        scale = np.abs(q - p.w).max()
        resting = np.abs(p.w.reshape(p.nc, 3)).max(axis=1) <= ROUND_OFF * scale
        counts = [(m, iterations(p, *start(p, m, q, resting))) for m in modes]
        print(path.split("/")[-1], "resting", int(resting.sum()), "approaching",
              int((q.reshape(p.nc, 3)[:, 0] < 0).sum()), counts, flush=True)


if __name__ == "__main__":
    main(sys.argv)
