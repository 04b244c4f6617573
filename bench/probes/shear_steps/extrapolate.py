#!/usr/bin/env python3
"""Copies of consecutive wall-step files with a predicted guess.

For files F_1, ..., F_K of consecutive steps (each /guesses/1 = the previous
step's solution z_{k-1}), writes OUT/<name of F_k> for k >= 2 with
/guesses/1 replaced by a predictor:
  linear: z_{k-1} + theta (z_{k-1} - z_{k-2}), z = (v, u, r)  (theta = 1:
          linear extrapolation; z_{k-2} is F_{k-1}'s guess)
  r-only: the same on r, v and u kept from the previous step
Usage: extrapolate.py linear|r-only THETA OUT F_1 ... F_K (in step order)
"""
import shutil
import sys

import h5py


def main(kind, theta, out, paths):
    for prev, cur in zip(paths, paths[1:]):
        target = out + "/" + cur.split("/")[-1]
        shutil.copyfile(cur, target)
        with h5py.File(prev, "r") as p, h5py.File(target, "r+") as t:
            for key in ("v", "u", "r"):
                if kind == "r-only" and key != "r":
                    continue
                z1 = t["guesses"]["1"][key][:]
                z2 = p["guesses"]["1"][key][:]
                t["guesses"]["1"][key][...] = z1 + theta * (z1 - z2)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:])
