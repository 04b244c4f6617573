#!/usr/bin/env python3
"""Probe of the cold Newton tail on the 688-contact wall.

An independent numpy/scipy re-implementation of fcsn's Alart-Curnier Newton
(`--solver nsn`, split-exact rho x boost 30 never reduced, full steps, v = r =
0 start, formulations.md §3.1 / §4.1 / §9.1), used to test step variants
before touching the C++ driver. Its iterates match fcsn's digit for digit on
LowWall_FEM-i00001-688-00475 (e.g. max error 1.740e-07 at iteration 15,
2.098e-14 at 16). Results: bench/results/cold_tail.md.

Usage (use /usr/bin/python3: numpy, scipy, h5py):
  probe.py base FILE...          iterations, factorizations
  probe.py fd FILE               finite differences of G along the Newton step
  probe.py rotation FILE         where the remainder G(z + d) comes from
  probe.py oracle K FILE         from iterate K, Newton on the FINAL pieces
  probe.py chord N FILE...       + up to N chord steps on the old factors
  probe.py piece-chord N FILE... chord steps on the piece of the iterate
  probe.py consistent N FILE...  re-solve with the statuses predicted at z + d
  probe.py arc r|s FILE...       slip contacts' r_T (or s_T) moved on an arc
  probe.py scaled FILE...        slip rows ||s|| r_T - R s_T (over ||s||)
  probe.py anderson M FILE...    Anderson mixing of the last M + 1 Newton points
  probe.py jacobi FILE...        one-contact exact solves after each step
  probe.py rho-force F K FILE... rho_T scaled by r_N / median r_N (>= F),
                                 at every iteration (K = 0) or frozen at K
  probe.py mu-continuation F:T,1:1e-8 FILE...  Newton on mu x F to error T
                                 first, then on mu
"""
import sys

import h5py
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

TOL = 1e-8  # the --tol of the wall benchmarks
BOOST = 30.0  # RhoOptions::initial_boost


def load(path):
    g = h5py.File(path, "r")["fclib_global"]

    def matrix(name):
        d = g[name]
        m, n, nz = int(d["m"][0]), int(d["n"][0]), int(d["nz"][0])
        i, p, x = d["i"][:], d["p"][:], d["x"][:]
        if nz >= 0:  # triplet
            return sp.coo_matrix((x[:nz], (i[:nz], p[:nz])), shape=(m, n)).tocsc()
        return sp.csc_matrix((x, i, p), shape=(m, n))

    M, H = matrix("M"), matrix("H")
    if sp.tril(M, -1).nnz == 0:  # upper triangle stored: symmetrize
        M = (M + M.T - sp.diags(M.diagonal())).tocsc()
    v = g["vectors"]
    return M, H, v["f"][:], v["w"][:], v["mu"][:]


def split_exact_rho(M, H, boost):
    X = sla.splu(M.tocsc()).solve(H.toarray())
    nc = H.shape[1] // 3
    rho = np.zeros(3 * nc)
    for a in range(nc):
        W = H[:, 3 * a:3 * a + 3].toarray().T @ X[:, 3 * a:3 * a + 3]
        rho[3 * a] = 1.0 / W[0, 0]
        rho[3 * a + 1:3 * a + 3] = 1.0 / np.linalg.eigvalsh(W[1:, 1:]).max()
    return boost * rho


def alart_curnier(u, r, mu, rho, force=None, scaled=False):
    """F (3nc), A, B (nc x 3 x 3), status (0 open, 1 stick, 2 slip).
    force: per-contact status to use instead of the iterate's."""
    nc = len(mu)
    U, Rr, P = u.reshape(nc, 3), r.reshape(nc, 3), rho.reshape(nc, 3)
    s_n = Rr[:, 0] - P[:, 0] * U[:, 0]
    active = s_n > 0 if force is None else force > 0
    R = np.where(active, mu * s_n, 0.0)
    F, A, B = np.zeros((nc, 3)), np.zeros((nc, 3, 3)), np.zeros((nc, 3, 3))
    F[:, 0] = np.where(active, P[:, 0] * U[:, 0], Rr[:, 0])
    A[:, 0, 0] = np.where(active, P[:, 0], 0.0)
    B[:, 0, 0] = np.where(active, 0.0, 1.0)
    rho_u = P[:, 1:] * U[:, 1:]
    s_t = Rr[:, 1:] - rho_u
    ns = np.linalg.norm(s_t, axis=1)
    if force is None:
        opn = ~(R > 0)
        stick, slip = ~opn & (ns <= R), ~opn & (ns > R)
    else:
        opn, stick, slip = force == 0, force == 1, force == 2
    status = np.where(opn, 0, np.where(stick, 1, 2))
    I2 = np.eye(2)[None]
    F[opn, 1:] = Rr[opn, 1:]
    B[opn, 1, 1] = B[opn, 2, 2] = 1.0
    F[stick, 1:] = rho_u[stick]
    A[stick, 1, 1], A[stick, 2, 2] = P[stick, 1], P[stick, 2]
    i = slip
    s_hat = s_t[i] / ns[i, None]
    Rs, n_i = R[i], ns[i]
    ss = s_hat[:, :, None] * s_hat[:, None, :]
    if not scaled:
        F[i, 1:] = Rr[i, 1:] - Rs[:, None] * s_hat
        Bt = I2 - (Rs / n_i)[:, None, None] * (I2 - ss)
        At = (Rs / n_i)[:, None, None] * (I2 - ss)
    else:  # (||s|| r_T - R s) / ||s||, ||s|| of the denominator frozen
        rs = Rr[i, 1:][:, :, None] * s_hat[:, None, :]
        F[i, 1:] = Rr[i, 1:] - Rs[:, None] * s_hat
        Bt = (rs + (n_i - Rs)[:, None, None] * I2) / n_i[:, None, None]
        At = (Rs[:, None, None] * I2 - rs) / n_i[:, None, None]
    A[i, 1:, 0] = (mu[i] * P[i, 0])[:, None] * s_hat
    A[i, 1:, 1] = P[i, 1, None] * At[:, :, 0]
    A[i, 1:, 2] = P[i, 2, None] * At[:, :, 1]
    B[i, 1:, 0] = -mu[i][:, None] * s_hat
    B[i, 1:, 1:] = Bt
    return F.ravel(), A, B, status


def block_diagonal(A):
    nc = A.shape[0]
    rows = np.repeat(np.arange(3 * nc).reshape(nc, 3), 3, axis=1).ravel()
    cols = np.tile(np.arange(3 * nc).reshape(nc, 1, 3), (1, 3, 1)).ravel()
    return sp.csr_matrix((A.ravel(), (rows, cols)), shape=(3 * nc, 3 * nc))


def distance_to_cone(x, mu):
    t = np.linalg.norm(x[:, 1:], axis=1)
    xn = x[:, 0]
    inside, polar = (xn >= 0) & (t <= mu * xn), mu * t <= -xn
    c = (xn + mu * t) / (1 + mu * mu)
    p = np.zeros_like(x)
    p[inside] = x[inside]
    b = ~inside & ~polar
    p[b, 0] = c[b]
    p[b, 1:] = (mu[b] * c[b] / t[b])[:, None] * x[b, 1:]
    return np.linalg.norm(x - p, axis=1)


class Problem:
    def __init__(self, path, boost=BOOST, scaled=False):
        self.M, self.H, self.f, self.w, self.mu = load(path)
        self.n, self.m, self.nc = self.M.shape[0], self.H.shape[1], len(self.mu)
        self.HT = self.H.T.tocsr()
        self.rho = split_exact_rho(self.M, self.H, boost)
        self.scaled = scaled

    def residual(self, v, r, jacobian=True, force=None):
        u = self.HT @ v + self.w
        F, A, B, status = alart_curnier(u, r, self.mu, self.rho, force,
                                        self.scaled)
        G = np.concatenate([self.M @ v - self.H @ r - self.f, F])
        if not jacobian:
            return G, status
        J = sp.bmat([[self.M, -self.H],
                     [block_diagonal(A) @ self.HT, block_diagonal(B)]])
        return G, status, J.tocsc()

    def error(self, v, r):
        """max(e_cone, e_dual, e_comp, e_eq) of formulations.md §9.1."""
        u = (self.HT @ v + self.w).reshape(self.nc, 3)
        R = r.reshape(self.nc, 3)
        uh = u.copy()
        uh[:, 0] += self.mu * np.linalg.norm(u[:, 1:], axis=1)
        nr = np.linalg.norm(r) + 1e-300
        su = max(np.linalg.norm(abs(self.HT) @ abs(v) + abs(self.w)),
                 np.linalg.norm(uh))
        e_cone = np.linalg.norm(distance_to_cone(R, self.mu)) / nr
        e_dual = np.linalg.norm(distance_to_cone(uh, 1 / self.mu)) / su
        e_comp = np.sum(abs(np.sum(R * uh, axis=1))) / (nr * su)
        eq = self.M @ v - self.H @ r - self.f
        e_eq = np.linalg.norm(eq) / np.linalg.norm(
            abs(self.M) @ abs(v) + abs(self.H) @ abs(r) + abs(self.f))
        return max(e_cone, e_dual, e_comp, e_eq)

    def split(self, d):
        return d[:self.n], d[self.n:]

    def s_and_radius(self, v, r):
        u = (self.HT @ v + self.w).reshape(self.nc, 3)
        R, P = r.reshape(self.nc, 3), self.rho.reshape(self.nc, 3)
        s_t = R[:, 1:] - P[:, 1:] * u[:, 1:]
        return s_t, self.mu * np.maximum(R[:, 0] - P[:, 0] * u[:, 0], 0.0)


def newton(p, step=None, max_iterations=60, log=False):
    """Full-step Newton; step(p, v, r, status, lu, d) may return a modified
    (v, r, extra factorizations, extra solves). Returns (iterations,
    factorizations, solves, v, r)."""
    v, r = np.zeros(p.n), np.zeros(p.m)
    facts = solves = 0
    for k in range(max_iterations):
        G, status, J = p.residual(v, r)
        e = p.error(v, r)
        if log:
            print(k, "error %.3e merit %.3e" % (e, np.linalg.norm(G)))
        if e <= TOL:
            return k, facts, solves, v, r
        lu = sla.splu(J)
        d = lu.solve(-G)
        facts, solves = facts + 1, solves + 1
        if step is None:
            dv, dr = p.split(d)
            v, r = v + dv, r + dr
        else:
            v, r, f_extra, s_extra = step(p, v, r, status, lu, d)
            facts, solves = facts + f_extra, solves + s_extra
    return max_iterations, facts, solves, v, r


def chord_step(n_chord, on_piece):
    """After the Newton step, up to n_chord solves on the same factors for the
    residual at the new point (of G, or of the iterate's piece), each kept only
    if it lowers that residual's norm."""

    def step(p, v, r, status, lu, d):
        dv, dr = p.split(d)
        v, r = v + dv, r + dr
        force = status if on_piece else None
        G1, _ = p.residual(v, r, jacobian=False, force=force)
        solves = 0
        for _ in range(n_chord):
            e = lu.solve(-G1)
            solves += 1
            ev, er = p.split(e)
            G2, _ = p.residual(v + ev, r + er, jacobian=False, force=force)
            if np.linalg.norm(G2) >= np.linalg.norm(G1):
                break
            v, r, G1 = v + ev, r + er, G2
        return v, r, 0, solves

    return step


def consistent_step(n_inner):
    """Re-linearize at the iterate on the pieces (stick/slip) predicted at
    z + d and solve again (one factorization each), up to n_inner times."""

    def step(p, v, r, status, lu, d):
        facts = 0
        s_t, _ = p.s_and_radius(v, r)
        for _ in range(n_inner):
            dv, dr = p.split(d)
            _, predicted = p.residual(v + dv, r + dr, jacobian=False)
            flip = (status > 0) & (predicted > 0) & (predicted != status)
            flip &= (predicted == 1) | (np.linalg.norm(s_t, axis=1) > 0)
            if not flip.any():
                break
            status = np.where(flip, predicted, status)
            G, _, J = p.residual(v, r, force=status)
            d = sla.splu(J).solve(-G)
            facts += 1
        dv, dr = p.split(d)
        return v + dv, r + dr, facts, facts

    return step


def arc(x, dx):
    """x + dx with the tangential part of dx turned into a rotation."""
    nx = np.linalg.norm(x, axis=1)
    xh = x / nx[:, None]
    xp = np.stack([-xh[:, 1], xh[:, 0]], 1)
    radius = nx + np.sum(xh * dx, 1)
    phi = np.sum(xp * dx, 1) / nx
    return radius[:, None] * (np.cos(phi)[:, None] * xh +
                              np.sin(phi)[:, None] * xp)


def arc_step(variable):
    def step(p, v, r, status, lu, d):
        dv, dr = p.split(d)
        v1, r1 = v + dv, r + dr
        R0, R1 = r.reshape(p.nc, 3), r1.reshape(p.nc, 3).copy()
        slip = (status == 2) & (np.linalg.norm(R0[:, 1:], axis=1) > 0)
        if variable == "r":
            R1[slip, 1:] = arc(R0[slip, 1:], R1[slip, 1:] - R0[slip, 1:])
        else:
            s0, _ = p.s_and_radius(v, r)
            s1, _ = p.s_and_radius(v1, r1)
            rho_u1 = R1[slip, 1:] - s1[slip]
            R1[slip, 1:] = arc(s0[slip], s1[slip] - s0[slip]) + rho_u1
        return v1, R1.ravel(), 0, 0

    return step


def anderson_step(depth):
    """Anderson mixing of the last depth + 1 Newton points z_i + d_i (the
    steps d_i as residuals of the Newton map), kept if |G| falls."""
    history = []

    def step(p, v, r, status, lu, d):
        x = np.concatenate([v, r])
        history.append((x, d))
        del history[:-(depth + 1)]
        newton_point = x + d
        if len(history) > 1 and len(history) == depth + 1:
            D = np.array([h[1] for h in history]).T
            Y = np.array([h[0] + h[1] for h in history]).T
            gamma = np.linalg.lstsq(np.diff(D, axis=1), D[:, -1], rcond=None)[0]
            mixed = Y[:, -1] - np.diff(Y, axis=1) @ gamma
            Gn, _ = p.residual(*p.split(newton_point), jacobian=False)
            Gm, _ = p.residual(*p.split(mixed), jacobian=False)
            if np.linalg.norm(Gm) < np.linalg.norm(Gn):
                newton_point = mixed
        v1, r1 = p.split(newton_point)
        return v1, r1, 0, 0

    return step


def jacobi_step(p):
    """After the step, every contact solves its own problem exactly (Newton
    on AC(u_a + W_aa dr_a, r_a + dr_a), W_aa = H_a^T M^-1 H_a), then
    v += M^-1 H dr keeps the balance; kept if |G| falls."""
    m_lu = sla.splu(p.M.tocsc())
    X = m_lu.solve(p.H.toarray())
    W = np.array([p.H[:, 3 * a:3 * a + 3].toarray().T @ X[:, 3 * a:3 * a + 3]
                  for a in range(p.nc)])

    def local_solves(u, r):
        U, R = u.reshape(p.nc, 3), r.reshape(p.nc, 3)
        D = np.zeros((p.nc, 3))
        F0, _, _, _ = alart_curnier(u, r, p.mu, p.rho)
        best, best_norm = D.copy(), np.linalg.norm(F0.reshape(p.nc, 3), axis=1)
        for _ in range(20):
            uu = (U + np.einsum("aij,aj->ai", W, D)).ravel()
            F, A, B, _ = alart_curnier(uu, (R + D).ravel(), p.mu, p.rho)
            F = F.reshape(p.nc, 3)
            norm = np.linalg.norm(F, axis=1)
            better = norm < best_norm
            best[better], best_norm[better] = D[better], norm[better]
            # 1e-14: keeps the 3 x 3 solves defined at the open contacts.
            D = D + np.linalg.solve(A @ W + B + 1e-14 * np.eye(3)[None],
                                    -F[:, :, None])[:, :, 0]
        return best.ravel()

    def step(p, v, r, status, lu, d):
        dv, dr = p.split(d)
        v, r = v + dv, r + dr
        G, _ = p.residual(v, r, jacobian=False)
        dr = local_solves(p.HT @ v + p.w, r)
        v2, r2 = v + m_lu.solve(p.H @ dr), r + dr
        G2, _ = p.residual(v2, r2, jacobian=False)
        if np.linalg.norm(G2) < np.linalg.norm(G):
            return v2, r2, 0, 1
        return v, r, 0, 1

    return step


def force_scaled_rho(p, floor, freeze_at):
    """Newton with rho_T of each contact multiplied by clip(r_N / median of
    the positive r_N, floor, 1): a smaller rho_T for lightly loaded contacts
    (the zero set does not depend on rho). The scale is recomputed before
    every iteration (freeze_at = 0) or only at iteration freeze_at."""
    rho0 = p.rho.reshape(p.nc, 3).copy()
    v, r = np.zeros(p.n), np.zeros(p.m)
    for k in range(60):
        r_n = r.reshape(p.nc, 3)[:, 0]
        if (r_n > 0).any() and freeze_at in (0, k):
            rho = rho0.copy()
            rho[:, 1:] *= np.clip(r_n / np.median(r_n[r_n > 0]), floor,
                                  1.0)[:, None]
            p.rho = rho.ravel()
        G, status, J = p.residual(v, r)
        if p.error(v, r) <= TOL:
            return k
        dv, dr = p.split(sla.splu(J).solve(-G))
        v, r = v + dv, r + dr
    return 60


def friction_continuation(p, stages):
    """Newton on mu x fraction until the error is <= tol, for each
    (fraction, tol) stage in turn, from the previous stage's point; returns
    the factorizations of all stages."""
    mu0 = p.mu.copy()
    v, r = np.zeros(p.n), np.zeros(p.m)
    facts = 0
    for fraction, tol in stages:
        p.mu = fraction * mu0
        for _ in range(60):
            G, status, J = p.residual(v, r)
            if p.error(v, r) <= tol:
                break
            dv, dr = p.split(sla.splu(J).solve(-G))
            v, r = v + dv, r + dr
            facts += 1
    p.mu = mu0
    return facts


def finite_differences(p):
    """Per iteration: |(G(z + h d) - G(z - h d))/2h - J d| / |J d| for two h, and the
    remainder G(z + d) split into contacts whose status changed or not."""
    v, r = np.zeros(p.n), np.zeros(p.m)
    for k in range(60):
        G, status, J = p.residual(v, r)
        if p.error(v, r) <= TOL:
            return
        d = sla.splu(J).solve(-G)
        Jd = J @ d
        dv, dr = p.split(d)
        line = "%2d merit %.2e |G+Jd|/|G| %.0e" % (
            k, np.linalg.norm(G), np.linalg.norm(Jd + G) / np.linalg.norm(G))
        # Central differences along d with step h d, over the rows of the
        # contacts whose case is the same at z - h d, z and z + h d (a kink
        # crossed within the step is excluded and counted) and the balance.
        for h in (1e-3, 1e-5):
            Gp, sp_ = p.residual(v + h * dv, r + h * dr, jacobian=False)
            Gm, sm_ = p.residual(v - h * dv, r - h * dr, jacobian=False)
            same = (sp_ == status) & (sm_ == status)
            rows = np.concatenate([np.ones(p.n, bool), np.repeat(same, 3)])
            diff = ((Gp - Gm) / (2 * h) - Jd)[rows]
            line += " fd(h=%g) %.1e (%d kinks)" % (
                h, np.linalg.norm(diff) / np.linalg.norm(Jd[rows]),
                np.sum(~same))
        G1, status1 = p.residual(v + dv, r + dr, jacobian=False)
        rem = np.linalg.norm(G1[p.n:].reshape(p.nc, 3), axis=1)
        changed = status1 != status
        print(line + " | G(z+d): %.1e, %d changed %.1e, unchanged %.1e" %
              (np.linalg.norm(G1), changed.sum(),
               np.linalg.norm(rem[changed]), np.linalg.norm(rem[~changed])))
        v, r = v + dv, r + dr


def rotation(p):
    """Per iteration: the remainder G(z + d) of the contacts slipping at both
    z and z + d (their curvature) vs the others, and how far s_T turns."""
    v, r = np.zeros(p.n), np.zeros(p.m)
    for k in range(60):
        G, status, J = p.residual(v, r)
        if p.error(v, r) <= TOL:
            return
        dv, dr = p.split(sla.splu(J).solve(-G))
        s0, R0 = p.s_and_radius(v, r)
        s1, _ = p.s_and_radius(v + dv, r + dr)
        G1, status1 = p.residual(v + dv, r + dr, jacobian=False)
        rem = np.linalg.norm(G1[p.n:].reshape(p.nc, 3), axis=1)
        slip = (status == 2) & (status1 == 2)
        cos = np.sum(s0 * s1, 1) / (np.linalg.norm(s0, axis=1) *
                                    np.linalg.norm(s1, axis=1) + 1e-300)
        angle = np.where(slip, np.degrees(np.arccos(np.clip(cos, -1, 1))), 0)
        a = np.argmax(angle)
        print("%2d merit %.1e remainder: slip->slip %.1e, others %.1e | "
              "slip->slip turning > 1 deg: %3d, max %5.1f deg at R %.1e "
              "(median R %.1e)" %
              (k, np.linalg.norm(G), np.linalg.norm(rem[slip]),
               np.linalg.norm(rem[~slip]), np.sum(angle > 1), angle[a], R0[a],
               np.median(R0[R0 > 0])))
        v, r = v + dv, r + dr


def oracle(p, start):
    """Newton from iterate `start` on the pieces of the converged solution."""
    v, r = np.zeros(p.n), np.zeros(p.m)
    iterates = []
    for _ in range(60):
        G, status, J = p.residual(v, r)
        if p.error(v, r) <= TOL:
            break
        iterates.append((v, r))
        dv, dr = p.split(sla.splu(J).solve(-G))
        v, r = v + dv, r + dr
    _, final = p.residual(v, r, jacobian=False)
    print("plain Newton: %d iterations" % len(iterates))
    v, r = iterates[start]
    for k in range(start, start + 40):
        G, status = p.residual(v, r, jacobian=False)
        e = p.error(v, r)
        print("%2d error %.2e merit %.2e statuses != final: %d" %
              (k, e, np.linalg.norm(G), np.sum(status != final)))
        if e <= TOL:
            return
        G, _, J = p.residual(v, r, force=final)
        dv, dr = p.split(sla.splu(J).solve(-G))
        v, r = v + dv, r + dr


def main(argv):
    mode, args = argv[1], argv[2:]
    single = {"fd": finite_differences, "rotation": rotation}
    if mode in single:
        single[mode](Problem(args[0]))
        return
    if mode == "oracle":
        oracle(Problem(args[1]), int(args[0]))
        return
    if mode == "mu-continuation":
        stages = [tuple(float(x) for x in stage.split(":"))
                  for stage in args[0].split(",")]
        for path in args[1:]:
            print("%s factorizations %d" % (path.split("/")[-1],
                  friction_continuation(Problem(path), stages)), flush=True)
        return
    if mode == "rho-force":
        for path in args[2:]:
            print("%s iterations %d" % (path.split("/")[-1], force_scaled_rho(
                Problem(path), float(args[0]), int(args[1]))), flush=True)
        return
    scaled = mode == "scaled"
    step = None
    if mode in ("chord", "piece-chord"):
        step = chord_step(int(args[0]), mode == "piece-chord")
    elif mode == "consistent":
        step = consistent_step(int(args[0]))
    elif mode == "arc":
        step = arc_step(args[0])
    elif mode == "anderson":
        step = anderson_step(int(args[0]))
    if mode not in ("base", "scaled", "jacobi"):
        args = args[1:]
    for path in args:
        p = Problem(path, scaled=scaled)
        if mode == "jacobi":
            step = jacobi_step(p)
        k, facts, solves, _, _ = newton(p, step)
        print("%s iterations %d factorizations %d solves %d" %
              (path.split("/")[-1], k, facts, solves), flush=True)


if __name__ == "__main__":
    main(sys.argv)
