"""sliding_block.py: fcsn driven by GetFEM from Python (the twin of
examples/getfem/cpp/sliding_block.cc).

GetFEM (python3-getfem) meshes an elastic box [0, LX] x [0, LY] x [0, LZ]
lying on the rigid plane z = 0 with Q1 hexahedra (FEM_QK(3,1)) and assembles
its mass M, stiffness K, gravity and a tangential push on the face x = 0.
Every node of the bottom face is one contact (N = +z, T1 = x, T2 = y, gap =
the node's height). fcsn.MoreauJean (C++ fcsn::MoreauJean) forms each step
of the theta-method (theta = 1: the gap law then forbids penetration at the
end of the step) and one fcsn.Solver kept across the steps solves it,
warm-started from the previous step's result. Gravity acts from t = 0 on a
block at rest, so the first steps settle it; the push then grows linearly to
twice the friction capacity mu * weight and the block ends up sliding in +x.

Prints one line per step (status, Newton iterations, stick/slip/take-off
counts, mean sliding velocity of the bottom nodes). Exit status 0 when every
step converged and the block slides at the end, 1 otherwise. With --vtk DIR it
writes DIR/block_NNNN.vtk (GetFEM's exporter; DIR is created if missing),
otherwise nothing.

Run: PYTHONPATH=<fcsn package folder> /usr/bin/python3 sliding_block.py [--vtk DIR]
"""
import argparse
import os
import sys

import getfem as gf
import numpy as np
import scipy.sparse as sp

import fcsn

LX, LY, LZ = 0.4, 0.2, 0.1          # m
YOUNG, POISSON = 1e7, 0.3           # Pa, -: a stiff rubber
DENSITY, GRAVITY, MU = 1000.0, 9.81, 0.3


def scipy_csc(spmat):
    """A GetFEM Spmat as a scipy CSC matrix (the arrays fcsn reads without copying)."""
    jc, ir = spmat.csc_ind()
    return sp.csc_matrix((spmat.csc_val(), ir, jc), shape=tuple(spmat.size()))


def block_model(cells):
    """GetFEM's mesh, element, matrices and loads; H and the gaps from its dofs."""
    counts = (cells, max(1, cells // 2), max(1, cells // 4))
    mesh = gf.Mesh("cartesian", *(np.linspace(0.0, size, n + 1)
                                  for size, n in zip((LX, LY, LZ), counts)))
    mf = gf.MeshFem(mesh, 3)
    mf.set_fem(gf.Fem("FEM_QK(3,1)"))
    mim = gf.MeshIm(mesh, gf.Integ("IM_GAUSS_PARALLELEPIPED(3,2)"))
    bottom, left = 1, 2
    mesh.set_region(bottom, mesh.outer_faces_with_direction([0.0, 0.0, -1.0], 0.01))
    mesh.set_region(left, mesh.outer_faces_with_direction([-1.0, 0.0, 0.0], 0.01))
    n = mf.nbdof()
    zero = np.zeros(n)
    lam = YOUNG * POISSON / ((1 + POISSON) * (1 - 2 * POISSON))
    shear = YOUNG / (2 * (1 + POISSON))
    K = gf.asm_generic(mim, 2, f"({lam}*Div_Test_u*Id(3) + {2 * shear}*Sym(Grad_Test_u))"
                       ":Grad_Test2_u", -1, "u", 1, mf, zero)
    M = gf.asm_mass_matrix(mim, mf)
    M.scale(DENSITY)
    weight = gf.asm_generic(mim, 1, f"[0, 0, {-DENSITY * GRAVITY}].Test_u", -1, "u", 1, mf, zero)
    # A traction of 1 / area on x = 0: its resultant is 1 N along +x.
    unit_push = gf.asm_generic(mim, 1, f"[{1.0 / (LY * LZ)}, 0, 0].Test_u", left,
                               "u", 1, mf, zero)
    H, gaps, x_dofs = contact_matrix(mf, bottom)
    return dict(mf=mf, M=scipy_csc(M), K=scipy_csc(K), H=H, gaps=gaps, x_dofs=x_dofs,
                weight=weight, unit_push=unit_push,
                total_weight=DENSITY * GRAVITY * LX * LY * LZ)


def contact_matrix(mf, region):
    """One contact per node of `region`: column 3a (+0, 1, 2) of H selects the
    node's z, x, y dof. A vector element numbers a node's components as
    consecutive dofs; H relies on it, so it is checked: interpolating [0, 1, 2]
    gives each dof its component, and a node's dofs share one point."""
    component = np.rint(mf.eval("[0, 1, 2]").ravel(order="F")).astype(int)
    points = mf.basic_dof_nodes()
    dofs = [d for d in mf.basic_dof_on_region(region) if component[d] == 0]
    for d in dofs:
        if (list(component[d:d + 3]) != [0, 1, 2]
                or not np.array_equal(points[:, d], points[:, d + 2])):
            raise RuntimeError(f"GetFEM does not number node dof {d}'s components consecutively")
    rows = [d + c for d in dofs for c in (2, 0, 1)]
    m = 3 * len(dofs)
    H = sp.csc_matrix((np.ones(m), (rows, np.arange(m))), shape=(mf.nbdof(), m))
    return H, points[2, dofs].copy(), np.array(dofs)


def run(model, steps, h, vtk_dir, vtk_every):
    """The time loop; returns the exit status."""
    stepper = fcsn.MoreauJean(model["M"], model["K"], h=h, theta=1.0)
    M_hat = stepper.iteration_matrix      # M + theta^2 h^2 K, one pattern
    H = model["H"]
    nc = H.shape[1] // 3
    mu = np.full(nc, MU)
    solver = fcsn.Solver()          # keeps the analysis of J across the steps
    result = None                   # no guess at the first step
    q = np.zeros(model["M"].shape[0])
    v = np.zeros_like(q)
    capacity = MU * model["total_weight"]
    analyses = 0
    print("step  push/capacity  status     iter  stick  slip  take-off  mean v_x (m/s)")
    for step in range(1, steps + 1):
        push_begin, push_end = (2 * capacity * k / steps for k in (step - 1, step))
        impulse = stepper.external_impulse(
            model["weight"] + push_begin * model["unit_push"],
            model["weight"] + push_end * model["unit_push"])
        f = stepper.free_term(q, v, impulse)
        w = stepper.gap_free_term(H, model["gaps"], q, v)
        result = solver.solve(M_hat, H, f, w, mu, guess=result)
        analyses += result.summary.analyses
        if not result.converged:
            print(f"sliding_block: step {step}: {result.status}: {result.message}",
                  file=sys.stderr)
            return 1
        q, v = stepper.advance(result.v, q, v)
        status = result.contact_status
        print(f"{step:4d}  {push_end / capacity:13.2f}  {result.status:<9s}  "
              f"{result.iterations:4d}  {status.count('stick'):5d}  {status.count('slip'):4d}  "
              f"{status.count('take-off'):8d}  {v[model['x_dofs']].mean():14.3e}")
        if vtk_dir and (step % vtk_every == 0 or step == steps):
            model["mf"].export_to_vtk(os.path.join(vtk_dir, f"block_{step:04d}.vtk"), "ascii",
                                      q, "displacement", v, "velocity")
    status = result.contact_status
    if "stick" in status or "slip" not in status or not v[model["x_dofs"]].mean() > 0:
        print("sliding_block: expected the whole block to slide in +x at the end",
              file=sys.stderr)
        return 1
    print(f"sliding_block: {steps} steps converged, the block slides; {nc} contacts, "
          f"{q.size} dofs, {analyses} analysis of the Newton matrix")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--cells", type=int, default=8,
                        help="NX x NX/2 x NX/4 hexahedra (at least 1 each way)")
    parser.add_argument("--h", type=float, default=1e-3, help="time step (s)")
    parser.add_argument("--vtk", metavar="DIR", help="write DIR/block_NNNN.vtk (created if missing)")
    parser.add_argument("--vtk-every", type=int, default=10)
    args = parser.parse_args()
    if min(args.steps, args.cells, args.vtk_every) < 1 or not args.h > 0:
        parser.error("--steps, --cells and --vtk-every must be >= 1 and --h > 0")
    if args.vtk:
        os.makedirs(args.vtk, exist_ok=True)
    return run(block_model(args.cells), args.steps, args.h, args.vtk, args.vtk_every)


if __name__ == "__main__":
    sys.exit(main())
