"""Builds the extension fcsn._fcsn with the project's own CMake build.

setuptools only packages: CMake configures the repository with the Python module
on and everything else off, builds the one target fcsn_python (libfcsn is
static, so it ends up inside the extension; MUMPS, HDF5, BLAS stay shared
system libraries) and the result is copied where setuptools expects it.

Environment:
  FCSN_CMAKE_BUILD_DIR  CMake build folder (default build-python/cmake in the
                        source tree, kept so that a repeated install is incremental)
  FCSN_CMAKE_ARGS       extra configure arguments, split on spaces
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: the number of CPUs)
ccache is used when installed, with CCACHE_BASEDIR the source tree unless it
is set to a folder holding it, so that builds of other copies of the sources
hit the same cache.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    """The version of project(fcsn VERSION x.y.z): one number for C++ and Python."""
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(fcsn VERSION ([0-9.]+)", text).group(1)


def configure_args(build_type):
    args = [f"-DCMAKE_BUILD_TYPE={build_type}",
            "-DFCSN_BUILD_PYTHON=ON", "-DFCSN_BUILD_TESTS=OFF",
            "-DFCSN_BUILD_BENCHMARKS=OFF", "-DFCSN_BUILD_EXAMPLES=OFF",
            "-DBUILD_SHARED_LIBS=OFF",
            f"-DPython3_EXECUTABLE={sys.executable}"]
    try:
        import pybind11  # pip's pybind11 when isolated; Debian's otherwise
        args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
    except ImportError:
        pass  # CMake looks for pybind11Config.cmake itself (pybind11-dev)
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    if shutil.which("ccache"):
        args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
                 "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    args += os.environ.get("FCSN_CMAKE_ARGS", "").split()
    return args


class CMakeBuildExt(build_ext):
    def build_extension(self, ext):
        build_dir = pathlib.Path(os.environ.get("FCSN_CMAKE_BUILD_DIR",
                                                ROOT / "build-python" / "cmake"))
        env = dict(os.environ)
        # ccache hashes paths below its base folder relatively: a base that does
        # not hold this tree (python -m build unpacks the sdist in /tmp) would make
        # every compilation a miss.
        base = env.get("CCACHE_BASEDIR")
        if not base or not ROOT.is_relative_to(pathlib.Path(base).resolve()):
            env["CCACHE_BASEDIR"] = str(ROOT)
        build_type = "Debug" if self.debug else "Release"
        # A folder configured for another source tree (a copied checkout) makes
        # CMake fail: start it afresh.
        cache = build_dir / "CMakeCache.txt"
        if cache.exists() and f"CMAKE_HOME_DIRECTORY:INTERNAL={ROOT}\n" not in cache.read_text():
            shutil.rmtree(build_dir)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir)]
                       + configure_args(build_type), check=True, env=env)
        jobs = env.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build_dir), "--target",
                        "fcsn_python", "-j", jobs], check=True, env=env)
        built = sorted((build_dir / "python" / "fcsn").glob("_fcsn*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _fcsn*.so in {build_dir}, got {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=project_version(),
    ext_modules=[Extension("fcsn._fcsn", sources=[])],
    cmdclass={"build_ext": CMakeBuildExt},
    # Not build/: that is scripts/test.sh's CMake build folder.
    options={"build": {"build_base": "build-python/setuptools"}},
)
