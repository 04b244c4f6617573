#!/usr/bin/env python3
"""Copies of wall-step files whose guess keeps r and recomputes v.

/guesses/1 becomes v = M^-1 (f + H (s r)), u = H^T v + w, r <- s r: the
velocity that balances the guess's impulses under the new step's load
(s = 1), optionally with the impulses scaled by s. One LU of M (scipy) shared
by all files (the wall's M is the same at every step; checked).
Usage: consistent_v.py SCALE OUT FILE...
"""
import shutil
import sys

import h5py
import numpy as np
import scipy.sparse.linalg as sla

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/cold_tail")
from probe import load  # noqa: E402


def main(scale, out, paths):
    lu, M0 = None, None
    for path in paths:
        M, H, f, w, mu = load(path)
        if lu is None:
            lu, M0 = sla.splu(M.tocsc(), permc_spec="MMD_AT_PLUS_A"), M
        assert abs(M - M0).max() == 0.0, "M differs between files"
        target = out + "/" + path.split("/")[-1]
        shutil.copyfile(path, target)
        with h5py.File(target, "r+") as t:
            g = t["guesses"]["1"]
            r = scale * g["r"][:]
            v = lu.solve(f + H @ r)
            g["r"][...] = r
            g["v"][...] = v
            g["u"][...] = H.T @ v + w


if __name__ == "__main__":
    main(float(sys.argv[1]), sys.argv[2], sys.argv[3:])
