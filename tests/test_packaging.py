"""The source distribution holds every file the build and the tests need: every file git tracks (a
link as the files it leads to: the checkout's examples/ is python/mathhammer/examples), but those
left out on purpose (pyproject.toml's ``sdist.exclude``).

CI checks the sdist it builds the wheel from (``.ci/run`` names it in MATHHAMMER_SDIST); elsewhere
this test makes one from the checkout with scikit-build-core, as ``python -m build --sdist`` does.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Tracked files the sdist leaves out, and why.
LEFT_OUT = {
    ".ci/run": "CI's script: it runs on a checkout",
}
#: Files the sdist adds: its metadata.
ADDED = {"PKG-INFO"}


def _git_files(*options: str) -> set[str]:
    done = subprocess.run(["git", "ls-files", "-z", *options], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"the sdist is checked against git ls-files: run in a git checkout\n{done.stderr}"
    return set(filter(None, done.stdout.split("\0")))


def _as_files(names: set[str]) -> set[str]:
    """``names`` with each link to a folder replaced by the files in that folder (as an sdist holds it)."""
    files = set()
    for name in names:
        path = ROOT / name
        if path.is_symlink() and path.is_dir():
            files |= {f"{name}/{p.relative_to(path).as_posix()}" for p in path.rglob("*") if p.is_file()}
        else:
            files.add(name)
    return files


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("MATHHAMMER_SDIST")
    if given:
        return Path(given)
    from scikit_build_core.build import build_sdist

    out = tmp_path_factory.mktemp("sdist")
    cwd = Path.cwd()
    os.chdir(ROOT)  # the PEP 517 hook builds the project it runs in
    try:
        name = build_sdist(str(out))
    finally:
        os.chdir(cwd)
    return out / name


def test_the_sdist_holds_every_tracked_file_but_those_left_out(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        members = archive.getmembers()
    top = {PurePosixPath(m.name).parts[0] for m in members}
    assert len(top) == 1, top  # one folder, name-version
    held = {PurePosixPath(*PurePosixPath(m.name).parts[1:]).as_posix() for m in members if m.isfile()}
    tracked = _as_files(_git_files())
    # a working tree's own untracked files (not git-ignored) go into an sdist made from it; a clean
    # checkout, as in CI, has none
    untracked = _as_files(_git_files("--others", "--exclude-standard"))
    assert set(LEFT_OUT) <= tracked, "LEFT_OUT names a file git does not track"
    assert not held & set(LEFT_OUT), "pyproject.toml's sdist.exclude and LEFT_OUT disagree"
    missing = sorted(tracked - set(LEFT_OUT) - held)
    extra = sorted(held - tracked - untracked - ADDED)
    assert not missing, f"tracked files the sdist lacks: {missing}"
    assert not extra, f"files in the sdist that git does not track: {extra}"
    assert not any(m.issym() or m.islnk() for m in members), "links do not travel in an sdist"


def test_the_package_under_test_is_this_checkouts() -> None:
    """The suite tests the Python files of this checkout, whether it imports them from python/ (a
    development build) or from an installed wheel: an older install of the same version, kept by pip,
    would otherwise pass or fail for code that is no longer here."""
    import mathhammer

    installed = Path(mathhammer.__file__).resolve().parent
    source = ROOT / "python" / "mathhammer"
    tracked = sorted(
        name for name in _git_files("python/mathhammer") if name.endswith(".py") and "/examples/" not in name
    )
    assert tracked, "no tracked Python files under python/mathhammer"
    differ = []
    for name in tracked:
        here = installed / Path(name).relative_to("python/mathhammer")
        if not here.is_file() or here.read_bytes() != (ROOT / name).read_bytes():
            differ.append(name)
    assert not differ, (
        f"the mathhammer imported ({installed}) is not this checkout's ({source}): {len(differ)} files "
        f"missing or different, e.g. {differ[:3]}; reinstall it (tools/test.sh install)"
    )
