#!/usr/bin/python3
"""Front view of the masonry wall at one time step, from `masonry_wall --vtk`.

Reads wall_<k>.vtu and contacts_<k>.vtu (masonry_vtk.h) of each DIR and draws,
in the x-z plane (x along the wall, z up; the thickness y is projected away):
  * the front face of every H8 element in its deformed position, with the
    displacements magnified by --scale, filled by course;
  * every contact point at its deformed position, coloured by its status
    (take-off, stick, slip: fcsn/contact_status.h), so the sliding joints show.
One panel per DIR (e.g. the deck's and the paper's friction coefficients).

  plot_wall.py [--step K] [--scale 100] [--titles "A;B"] [--out wall.png] DIR...

K defaults to the last step of DIR/wall.pvd. Needs python3-matplotlib and
numpy (Debian packages).
"""
import argparse
import os
import re
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

STATUS = {0: ("take-off", "0.6"), 1: ("stick", "tab:blue"),
          2: ("slip", "tab:red")}
COURSE_FILL = ["#e8d8c0", "#d8c0a0", "#c8a880", "#b89060"]


def read_vtu(path):
    """{name: flat numpy array} of every DataArray of a .vtu (ascii)."""
    root = ET.parse(path).getroot()
    return {d.get("Name"): np.array(d.text.split(), dtype=float)
            for d in root.iter("DataArray")}


def last_step(directory):
    with open(os.path.join(directory, "wall.pvd")) as f:
        steps = [int(k) for k in re.findall(r'file="wall_(\d+)\.vtu"', f.read())]
    if not steps:
        raise SystemExit(f"plot_wall.py: no step in {directory}/wall.pvd")
    return max(steps)


def front_faces(wall, scale):
    """Deformed front face (min y) of every hexahedron, as x-z polygons."""
    points = wall["Points"].reshape(-1, 3)
    moved = points + scale * wall["displacement"].reshape(-1, 3)
    cells = wall["connectivity"].astype(int).reshape(-1, 8)
    polygons = []
    for cell in cells:
        y = points[cell, 1]
        face = cell[np.isclose(y, y.min())]
        xz = moved[face][:, [0, 2]]
        centre = xz.mean(axis=0)
        order = np.argsort(np.arctan2(xz[:, 1] - centre[1], xz[:, 0] - centre[0]))
        polygons.append(xz[order])
    return polygons


def draw(ax, directory, step, scale, title):
    wall = read_vtu(os.path.join(directory, f"wall_{step:05d}.vtu"))
    contacts = read_vtu(os.path.join(directory, f"contacts_{step:05d}.vtu"))
    course = wall["course"].astype(int)
    fills = [COURSE_FILL[c % len(COURSE_FILL)] for c in course]
    ax.add_collection(PolyCollection(front_faces(wall, scale), facecolors=fills,
                                     edgecolors="0.35", linewidths=0.3))
    position = (contacts["Points"].reshape(-1, 3)
                + scale * contacts["displacement"].reshape(-1, 3))
    status = contacts["status"].astype(int)
    for value, (label, colour) in STATUS.items():
        chosen = status == value
        ax.scatter(position[chosen, 0], position[chosen, 2], s=9, c=colour,
                   label=f"{label} ({chosen.sum()})", zorder=3)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    ax.set_title(f"{title}: step {step}, displacements x {scale:g}", fontsize=10)
    # Front and back contact rows project onto the same point; slip is drawn
    # last, so a joint shows red where either row slides.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              title="contacts", title_fontsize=8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--step", type=int, default=None)
    parser.add_argument("--scale", type=float, default=100.0)
    parser.add_argument("--titles", default=None)
    parser.add_argument("--out", default="wall.png")
    args = parser.parse_args()
    titles = args.titles.split(";") if args.titles else args.dirs
    if len(titles) != len(args.dirs):
        raise SystemExit("plot_wall.py: one title per DIR")
    fig, axes = plt.subplots(len(args.dirs), 1, squeeze=False,
                             figsize=(10, 3.6 * len(args.dirs)))
    for ax, directory, title in zip(axes[:, 0], args.dirs, titles):
        step = args.step if args.step is not None else last_step(directory)
        draw(ax, directory, step, args.scale, title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"plot_wall.py: wrote {args.out}")


if __name__ == "__main__":
    main()
