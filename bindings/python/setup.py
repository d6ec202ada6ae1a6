"""Build step of the coinfolio wheel: libcoinfolio.so is built (release) and shipped inside.

Everything declarative lives in pyproject.toml; this file adds what setuptools cannot say there:

- ``build_py`` runs ``swift build -c release --product coinfolio`` in the Swift package and
  copies ``libcoinfolio.so`` into the package, so ``import coinfolio`` needs no environment
  variable. The Swift package is, in this order: ``$COINFOLIO_SWIFT_PACKAGE``, the repository
  around this folder (``../..``, the usual case: ``pip install ./bindings/python`` and
  ``python -m build --wheel``), or the copy an sdist carries in ``swift/``. SwiftPM builds
  incrementally, so a release build the repository already has is reused.
- ``sdist`` carries the Swift package (manifest, Sources, Tests, include) in ``swift/`` so that a
  wheel can be built from the sdist alone (``python -m build`` does that).
- ``bdist_wheel`` tags the wheel for the platform (``py3-none-linux_x86_64``): it holds a native
  library but no Python extension, so any Python 3 can load it.

The library built here loads the Swift runtime from the toolchain's folder (its RUNPATH), so this
wheel works where that toolchain is installed. ``build_wheel.sh`` (``make wheel``) runs this build
and then ``auditwheel repair``, which grafts the runtime into the wheel for machines without it.

``$SWIFT`` names the swift driver (default ``swift`` on PATH).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
LIBRARY = "libcoinfolio.dylib" if sys.platform == "darwin" else "libcoinfolio.so"
#: What of the Swift package an sdist carries (enough for `swift build --product coinfolio`).
SWIFT_PACKAGE_PARTS = ("Package.swift", "Package.resolved", "Sources", "Tests", "include")


def swift_package() -> Path:
    """The folder of the Swift package to build the library from."""
    explicit = os.environ.get("COINFOLIO_SWIFT_PACKAGE")
    candidates: List[Path] = [Path(explicit)] if explicit else []
    candidates += [HERE.parent.parent, HERE / "swift"]
    for candidate in candidates:
        if (candidate / "Package.swift").is_file():
            return candidate.resolve()
    raise SystemExit(
        "coinfolio: no Swift package to build libcoinfolio from (looked in "
        + ", ".join(str(path) for path in candidates)
        + "); build from a Coinfolio checkout or set COINFOLIO_SWIFT_PACKAGE"
    )


def build_library() -> Path:
    """Builds libcoinfolio in release mode and returns its path."""
    package = swift_package()
    swift = os.environ.get("SWIFT", "swift")
    command = [swift, "build", "-c", "release", "--product", "coinfolio", "--package-path", str(package)]
    print("coinfolio: " + " ".join(command), flush=True)
    try:
        subprocess.run(command, check=True)
    except FileNotFoundError:
        raise SystemExit(f"coinfolio: {swift!r} not found: install the Swift toolchain (or set SWIFT)")
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"coinfolio: building libcoinfolio failed (exit status {error.returncode})")
    library = package / ".build" / "release" / LIBRARY
    if not library.is_file():
        raise SystemExit(f"coinfolio: the build did not produce {library}")
    return library


class BuildPyWithLibrary(build_py):
    """build_py that also puts a release libcoinfolio into the built package."""

    def run(self) -> None:
        super().run()
        library = build_library()
        target = Path(self.build_lib) / "coinfolio" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library, target)
        os.chmod(target, 0o755)

    def get_outputs(self, include_bytecode: bool = True) -> List[str]:  # type: ignore[override]
        outputs = list(super().get_outputs(include_bytecode))
        return outputs + [str(Path(self.build_lib) / "coinfolio" / LIBRARY)]


class SdistWithSwiftPackage(sdist):
    """sdist that carries the Swift package in swift/, for wheels built from the sdist."""

    def make_release_tree(self, base_dir: str, files: List[str]) -> None:
        super().make_release_tree(base_dir, files)
        package = swift_package()
        target = Path(base_dir) / "swift"
        ignore = shutil.ignore_patterns(".build", "__pycache__", "*.pyc")
        for part in SWIFT_PACKAGE_PARTS:
            source = package / part
            if source.is_dir():
                shutil.copytree(source, target / part, ignore=ignore)
            elif source.is_file():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target / part)


commands = {"build_py": BuildPyWithLibrary, "sdist": SdistWithSwiftPackage}

bdist_wheel_base: Optional[type]
try:
    from setuptools.command.bdist_wheel import bdist_wheel as bdist_wheel_base
except ImportError:  # setuptools < 70.1
    try:
        from wheel.bdist_wheel import bdist_wheel as bdist_wheel_base
    except ImportError:
        bdist_wheel_base = None

if bdist_wheel_base is not None:

    class PlatformWheel(bdist_wheel_base):  # type: ignore[misc, valid-type]
        """A wheel for this platform, any Python 3: a native library, no extension module."""

        def get_tag(self):  # type: ignore[no-untyped-def]
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    commands["bdist_wheel"] = PlatformWheel



class NativeDistribution(Distribution):
    """Says the package holds native code, so that the wheel is a platform wheel."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass=commands, distclass=NativeDistribution)
