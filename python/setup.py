"""Installs the cosda module from this source tree: builds the CMake target cosda_python in
COSDA_BUILD_DIR (default: the release preset's build/, configured when absent) and packages
build/python/cosda. Offline: `pip install --no-build-isolation ./python` (docs/python.md)."""

import os
import pathlib
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

SOURCE = pathlib.Path(__file__).resolve().parent.parent


def version():
    """The project's version, from CMakeLists.txt's project() line."""
    text = (SOURCE / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(cosda VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_py):
    """build_py that builds the compiled module with CMake and copies the package."""

    def run(self):
        super().run()  # cosda/__init__.py
        build = pathlib.Path(os.environ.get("COSDA_BUILD_DIR", SOURCE / "build"))
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(build), "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=Release"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "cosda_python"], check=True)
        out = pathlib.Path(self.build_lib) / "cosda"
        out.mkdir(parents=True, exist_ok=True)
        for f in (build / "python" / "cosda").iterdir():
            if f.name.startswith("_cosda"):
                shutil.copy2(f, out / f.name)


class BinaryDistribution(Distribution):
    """A wheel for this interpreter and platform (the package holds a compiled module)."""

    def has_ext_modules(self):
        return True


setup(name="cosda", version=version(), packages=["cosda"], distclass=BinaryDistribution,
      cmdclass={"build_py": CMakeBuild}, python_requires=">=3.9",
      description="Executed operation counts and memory of streaming-attention variants")
