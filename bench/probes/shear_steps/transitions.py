#!/usr/bin/env python3
"""Which contacts change status between a wall step's guess and its solution.

For each FCLib file with /guesses and /solution (masonry_wall --export-steps):
the status of r per contact (take-off r_N <= 1e-12 max r_N, stick ||r_T|| <
(1 - 1e-6) mu r_N, else slip) at the guess (the previous step's solution) and
at the solution, the transitions, and for the contacts that change: the joint
kind (normal direction of the contact's H column: x/y horizontal = head
joint, z vertical = bed joint or support) and the normal force against the
median. Use /usr/bin/python3 (h5py).

  transitions.py FILE...
"""
import sys

import h5py
import numpy as np
import scipy.sparse as sp


def load(path):
    f = h5py.File(path, "r")
    g = f["fclib_global"]
    d = g["H"]
    m, n, nz = int(d["m"][0]), int(d["n"][0]), int(d["nz"][0])
    i, p, x = d["i"][:], d["p"][:], d["x"][:]
    if nz >= 0:
        H = sp.coo_matrix((x[:nz], (i[:nz], p[:nz])), shape=(m, n)).tocsc()
    else:
        H = sp.csc_matrix((x, i, p), shape=(m, n))
    mu = g["vectors"]["mu"][:]
    return H, mu, f["guesses"]["1"]["r"][:], f["solution"]["r"][:]


def statuses(r, mu):
    R = r.reshape(-1, 3)
    t = np.linalg.norm(R[:, 1:], axis=1)
    off = R[:, 0] <= 1e-12 * max(R[:, 0].max(), 1e-300)
    stick = ~off & (t < (1 - 1e-6) * mu * R[:, 0])
    return np.where(off, 0, np.where(stick, 1, 2))


def normal_axis(H):
    """0, 1, 2 = x, y, z: the dof direction carrying most of each normal
    column (dofs ordered x, y, z per node)."""
    Hn = H[:, 0::3].tocsc()
    axes = np.zeros(Hn.shape[1], dtype=int)
    for a in range(Hn.shape[1]):
        col = Hn[:, a]
        weight = np.zeros(3)
        np.add.at(weight, col.indices % 3, np.abs(col.data))
        axes[a] = weight.argmax()
    return axes


def main(paths):
    names = ["open", "stick", "slip"]
    for path in paths:
        H, mu, r0, r1 = load(path)
        s0, s1 = statuses(r0, mu), statuses(r1, mu)
        axis = normal_axis(H)
        rn = r1[0::3]
        med = np.median(rn[rn > 0])
        changed = s0 != s1
        print(path.split("/")[-1])
        for a in range(3):
            for b in range(3):
                k = np.sum((s0 == a) & (s1 == b))
                if a != b and k:
                    print("  %s -> %s: %d" % (names[a], names[b], k))
        for ax, label in ((2, "normal z (bed/support)"),
                          (0, "normal x (head)"), (1, "normal y (head)")):
            sel = axis == ax
            if not sel.any():
                continue
            print("  %-24s contacts %4d  changed %4d  slip at end %4d"
                  "  r_N/median: all %.2f, changed %s" % (
                      label, sel.sum(), (changed & sel).sum(),
                      (sel & (s1 == 2)).sum(), np.median(rn[sel]) / med,
                      "%.2f" % (np.median(rn[changed & sel]) / med)
                      if (changed & sel).any() else "-"))


if __name__ == "__main__":
    main(sys.argv[1:])
