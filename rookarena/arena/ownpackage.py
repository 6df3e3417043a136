"""This very package, for the Python processes the referee starts with its own interpreter (the worker pool,
``check-bot``'s opponent): the PYTHONPATH under which they import it, however it was installed or run."""

from __future__ import annotations

import os
import pathlib
import site

PACKAGE_ROOT = str(pathlib.Path(__file__).resolve().parents[2])  # the folder holding the package


def installed(inherited: bool) -> bool:
    """Whether a process of this Python finds the package by itself: in one of its site directories (the user's
    too when the process is given this environment, ``inherited``, PYTHONUSERBASE and all). There it stays
    after the standard library: put on PYTHONPATH, a backport named like a standard module (PyPI's
    ``pathlib``) would shadow the standard one."""
    sites = list(site.getsitepackages())
    if inherited and site.ENABLE_USER_SITE:
        sites.append(site.getusersitepackages())
    return any(os.path.realpath(path) == PACKAGE_ROOT for path in sites)


def python_path(existing: str | None, inherited: bool) -> str:
    """A PYTHONPATH for such a process: ``existing`` (the environment's), after the package's folder unless
    the process finds the package by itself (a checkout run in place, ``pip install --target``)."""
    own = None if installed(inherited) else PACKAGE_ROOT
    return os.pathsep.join(filter(None, [own, existing]))
