#!/usr/bin/env python3
"""Per-iteration, per-contact view of warm Newton on a wall step.

Re-runs fcsn's `--solver nsn --warm-start` Alart-Curnier Newton (split-exact
rho x boost 30, full steps, start = the file's /guesses/1) with the functions
of bench/probes/cold_tail/probe.py (whose iterates match fcsn's digit for digit),
the Delassus blocks of rho computed in column chunks so that refine-2 files
(n = 43,745) fit in memory. Per iteration it prints the criterion, the
statuses of the AC pieces (open/stick/slip), the contacts whose piece changed
since the previous iterate, split by joint kind (normal along x: head joints;
z: bed joints and supports), their normal force over the median, the largest
turn of s_T^ among slip -> slip contacts, and e_cone's share of the head
joints. Use /usr/bin/python3.

  probe.py FILE [BOOST]
  probe.py --oracle FILE   Newton from the guess on the pieces of the converged
                           solution (statuses known in advance): the most a
                           status predictor could save
"""
import sys

import numpy as np
import scipy.sparse.linalg as sla

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/cold_tail")
import probe as cold  # noqa: E402
from transitions import normal_axis  # noqa: E402

CHUNK = 256  # columns of H per solve with M's LU (memory: n x CHUNK doubles)


def split_exact_rho(M, H, boost):
    lu = sla.splu(M.tocsc(), permc_spec="MMD_AT_PLUS_A")
    nc = H.shape[1] // 3
    rho = np.zeros(3 * nc)
    for c0 in range(0, 3 * nc, 3 * CHUNK):
        c1 = min(3 * nc, c0 + 3 * CHUNK)
        Hc = H[:, c0:c1]
        X = lu.solve(Hc.toarray())
        for a in range(c0 // 3, c1 // 3):
            j = 3 * a - c0
            W = Hc[:, j:j + 3].toarray().T @ X[:, j:j + 3]
            rho[3 * a] = 1.0 / W[0, 0]
            rho[3 * a + 1:3 * a + 3] = 1.0 / np.linalg.eigvalsh(W[1:, 1:]).max()
    return boost * rho


class Problem(cold.Problem):
    def __init__(self, path, boost):
        self.M, self.H, self.f, self.w, self.mu = cold.load(path)
        self.n, self.m, self.nc = (self.M.shape[0], self.H.shape[1],
                                   len(self.mu))
        self.HT = self.H.T.tocsr()
        self.rho = split_exact_rho(self.M, self.H, boost)
        self.scaled = False


def guess(path):
    import h5py
    with h5py.File(path, "r") as f:
        g = f["guesses"]["1"]
        return g["v"][:], g["r"][:]


def main(path, boost):
    p = Problem(path, boost)
    axis = normal_axis(p.H)
    head = axis != 2
    v, r = guess(path)
    previous, previous_hat = None, None
    names = ("open", "stick", "slip")
    for k in range(30):
        G, status, J = p.residual(v, r)
        e = p.error(v, r)
        s_t, radius = p.s_and_radius(v, r)
        s_hat = s_t / np.maximum(np.linalg.norm(s_t, axis=1), 1e-300)[:, None]
        rn = np.maximum(r[0::3], 0.0)
        med = np.median(rn[rn > 0]) if (rn > 0).any() else 1.0
        R = r.reshape(-1, 3)
        cone = cold.distance_to_cone(R, p.mu)
        line = "%2d err %.2e  " % (k, e)
        line += " ".join("%s %d" % (names[i], np.sum(status == i))
                         for i in range(3))
        line += "  e_cone head share %.2f" % (
            np.linalg.norm(cone[head]) / max(np.linalg.norm(cone), 1e-300))
        if previous is not None:
            ch = status != previous
            line += "  changed %d (head %d, bed %d)" % (
                ch.sum(), (ch & head).sum(), (ch & ~head).sum())
            if ch.any():
                line += " r_N/med %.2f" % (np.median(rn[ch]) / med)
            ss = (status == 2) & (previous == 2)
            if ss.any():
                cosine = np.clip(np.sum(s_hat[ss] * previous_hat[ss], 1), -1, 1)
                turn = np.degrees(np.arccos(cosine))
                line += "  slip turn max %.1f deg (>1 deg: %d)" % (
                    turn.max(), np.sum(turn > 1))
        print(line, flush=True)
        if e <= cold.TOL:
            return
        d = sla.splu(J, permc_spec="MMD_AT_PLUS_A").solve(-G)
        dv, dr = p.split(d)
        v, r = v + dv, r + dr
        previous, previous_hat = status, s_hat


def oracle(path):
    p = Problem(path, cold.BOOST)
    v, r = guess(path)
    for k in range(40):  # plain Newton to the solution's pieces
        G, status, J = p.residual(v, r)
        if p.error(v, r) <= cold.TOL:
            break
        dv, dr = p.split(sla.splu(J).solve(-G))
        v, r = v + dv, r + dr
    final = status
    print("plain Newton: %d iterations" % k)
    v, r = guess(path)
    for k in range(40):
        G, status = p.residual(v, r, jacobian=False)
        e = p.error(v, r)
        print("%2d error %.2e pieces != final: %d" % (
            k, e, np.sum(status != final)), flush=True)
        if e <= cold.TOL:
            return
        G, _, J = p.residual(v, r, force=final)
        dv, dr = p.split(sla.splu(J).solve(-G))
        v, r = v + dv, r + dr


if __name__ == "__main__":
    if sys.argv[1] == "--oracle":
        oracle(sys.argv[2])
    else:
        main(sys.argv[1],
             float(sys.argv[2]) if len(sys.argv) > 2 else cold.BOOST)
