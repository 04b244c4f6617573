"""An elastic lattice block sliding on a rigid floor, built with numpy and
scipy for the tests of stopping a long solve (test_stop_progress.py).

Nodes on an nx x ny x nz grid, unit masses, springs of stiffness k along the
grid edges (per component: the graph Laplacian of the grid); one implicit
Euler step of size h: M = I + h^2 K, f = h (gravity + a pull along x on the
top layer of pull_ratio * mu * weight). One contact per bottom node, normal
+z, tangents (x, y), friction mu, w = 0. n = 3 nx ny nz, nc = nx ny.
"""

import numpy as np
import scipy.sparse as sp


def _path_laplacian(n):
    main = np.full(n, 2.0)
    main[0] = main[-1] = 1.0
    off = -np.ones(n - 1)
    return sp.diags([off, main, off], [-1, 0, 1])


def lattice(nx, ny, nz, mu=0.3, pull_ratio=1.5, k=1e4, h=1e-2):
    """(M, H, f, w, mu) as scipy.sparse csc matrices and numpy arrays."""
    eye = sp.identity
    laplacian = (sp.kron(eye(nz * ny), _path_laplacian(nx)) +
                 sp.kron(sp.kron(eye(nz), _path_laplacian(ny)), eye(nx)) +
                 sp.kron(_path_laplacian(nz), eye(ny * nx)))
    nodes = nx * ny * nz
    M = (eye(3 * nodes) + h * h * k * sp.kron(laplacian, eye(3))).tocsc()
    f = np.zeros(3 * nodes)
    f[2::3] = -h * 9.81
    top = np.arange(nodes - nx * ny, nodes)
    f[3 * top] += h * pull_ratio * mu * 9.81 * nodes / (nx * ny)
    nc = nx * ny
    bottom = np.arange(nc)
    # Local frame (N, T1, T2) = (z, x, y) of each bottom node.
    rows = np.stack([3 * bottom + 2, 3 * bottom, 3 * bottom + 1], axis=1)
    H = sp.csc_matrix((np.ones(3 * nc), (rows.reshape(-1), np.arange(3 * nc))),
                      shape=(3 * nodes, 3 * nc))
    return M, H, f, np.zeros(3 * nc), np.full(nc, mu)
