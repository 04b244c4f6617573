"""sliding_bar.py: fcsn from Python in an implicit time loop (the Python twin of
examples/c/sliding_bar.c).

An elastic bar of NODES point masses lies on the plane z = 0, one frictional
contact per node (mu = 0.3). Gravity holds it down; a horizontal force P(t) at
node 0 grows linearly to twice the friction capacity mu m g. Each step of the
implicit Euler scheme (step h, displacements d, velocities v)

    (M + h^2 K) v_{k+1} = M v_k + h (F_ext - K d_k) + H r,   d_{k+1} = d_k + h v_{k+1}

is one FCLib global problem with fixed matrices M_hat = M + h^2 K and H (u = H^T v:
the contact velocities (N, T1, T2) = (v_z, v_x, v_y) of each node); only f
changes between steps, and each solve starts from the previous step's (v, r).
K couples neighbouring nodes by springs of stiffness k in x, y and z.

Physics expected: every contact sticks at first, then slip starts at the
pushed end and spreads, and once P exceeds the capacity the whole bar slides
in +x. The program prints one line per step and exits with status 1 if a
solve fails or the bar did not end up sliding as a whole.

Run: PYTHONPATH=<prefix>/lib/python3.11/site-packages python3 sliding_bar.py
(or PYTHONPATH=build/python in the build tree; CI runs it through ctest).
"""
import sys

import numpy as np
import scipy.sparse as sp

import fcsn

NODES, STEPS = 8, 40
MASS, STIFFNESS, MU, GRAVITY, H_STEP = 1.0, 1e3, 0.3, 9.81, 0.01


def bar_matrices(nodes):
    """M = m I, K = k (L kron I3) with L the path Laplacian, and H mapping each
    node's (z, x, y) velocity to its contact's (N, T1, T2)."""
    degree = np.full(nodes, 2.0)
    degree[[0, -1]] = 1.0
    off = -np.ones(nodes - 1)
    laplacian = sp.diags([off, degree, off], [-1, 0, 1])
    K = STIFFNESS * sp.kron(laplacian, sp.identity(3)).tocsc()
    M = MASS * sp.identity(3 * nodes, format="csc")
    rows = [3 * a + c for a in range(nodes) for c in (2, 0, 1)]
    H = sp.csc_matrix((np.ones(3 * nodes), (rows, np.arange(3 * nodes))),
                      shape=(3 * nodes, 3 * nodes))
    return M, K, H


def main():
    M, K, H = bar_matrices(NODES)
    capacity = MU * NODES * MASS * GRAVITY
    weight = np.zeros(3 * NODES)
    weight[2::3] = -MASS * GRAVITY
    d = np.zeros(3 * NODES)
    v = np.zeros(3 * NODES)
    M_hat = (M + H_STEP**2 * K).tocsc()
    w = np.zeros(3 * NODES)
    mu = np.full(NODES, MU)
    solver = fcsn.Solver(tolerance=1e-10)   # keeps the analysis between steps
    result = None                           # no guess at the first step
    analyses = 0
    print("step  push/capacity  status     iter  stick slip take-off  x(node 0)")
    for step in range(1, STEPS + 1):
        push = 2.0 * capacity * step / STEPS
        force = weight.copy()
        force[0] += push
        f = M @ v + H_STEP * (force - K @ d)
        result = solver.solve(M_hat, H, f, w, mu, guess=result)
        if not result.converged:
            print(f"step {step}: {result.status}: {result.message}", file=sys.stderr)
            return 1
        v = result.v
        d += H_STEP * v
        analyses += result.summary.analyses
        status = result.contact_status
        print(f"{step:4d}  {push / capacity:13.2f}  {result.status:<9s}  "
              f"{result.iterations:4d}  {status.count('stick'):5d} "
              f"{status.count('slip'):4d} {status.count('take-off'):8d}  {d[0]:9.3e}")
        if step == 1 and status.count("stick") != NODES:
            print("step 1: expected every contact to stick", file=sys.stderr)
            return 1
    sliding = all(s == "slip" for s in result.contact_status) and (v[0::3] > 0).all()
    if not sliding:
        print(f"expected every contact to slip in +x: {result.contact_status}, "
              f"v_x = {v[0::3]}", file=sys.stderr)
        return 1
    # Same patterns at every step: at most the first Newton solve analyses J.
    if analyses > 1:
        print(f"{analyses} symbolic analyses, expected at most 1", file=sys.stderr)
        return 1
    print(f"sliding_bar: the bar slides as expected ({analyses} analysis in {STEPS} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
