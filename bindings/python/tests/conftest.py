"""Shared fixtures: the `silknav` command line (the reference every answer is checked
against) and a world it generates.

The command line is the binary named by the environment variable SILKNAV_CLI, or else built
here from the repository with cargo (release, --locked), so the tests never skip."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]

# The generated world: 3×3 regions from region x 128, z 64, as `silknav demo` makes it.
ORIGIN = (128, 64)
SIZE = (3, 3)
X0, Z0 = ORIGIN[0] * 1920.0, ORIGIN[1] * 1920.0
X1, Z1 = X0 + SIZE[0] * 1920.0, Z0 + SIZE[1] * 1920.0


def _build_cli() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "--locked", "-p", "silknav-cli"],
        cwd=REPO,
        check=True,
    )
    metadata = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    target = Path(json.loads(metadata.stdout)["target_directory"])
    return target / "release" / "silknav"


class Cli:
    """Runs the `silknav` binary."""

    def __init__(self, binary: Path):
        self.binary = binary

    def run(self, *args, input=None, check=True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [str(self.binary), *map(str, args)],
            input=input,
            capture_output=True,
            text=True,
        )
        if check and done.returncode not in (0, 1):
            raise AssertionError(f"silknav {args}: exit {done.returncode}: {done.stderr}")
        return done

    def batch_json(self, command: str, world: Path, rows, *options) -> list:
        """One JSON answer per row, from a batch on standard input."""
        text = "".join(" ".join(repr(float(v)) for v in row) + "\n" for row in rows)
        done = self.run(command, "--json", *options, world, input=text)
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(rows)
        return answers

    def error_line(self, *args) -> str:
        """The one line a failing command prints on standard error (exit 2)."""
        done = self.run(*args, check=False)
        assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
        lines = done.stderr.splitlines()
        assert len(lines) == 1, lines
        return lines[0]


@pytest.fixture(scope="session")
def cli() -> Cli:
    binary = os.environ.get("SILKNAV_CLI")
    path = Path(binary) if binary else _build_cli()
    assert path.is_file(), f"no silknav binary at {path}"
    return Cli(path)


@pytest.fixture(scope="session")
def world_dir(cli, tmp_path_factory) -> Path:
    """A generated data root: terrain with walls, lakes, and objects (buildings, gates,
    bridges)."""
    root = tmp_path_factory.mktemp("world") / "world"
    cli.run("gen", "--out", root, "--seed", 1, "--size", f"{SIZE[0]}x{SIZE[1]}")
    assert (root / "navmesh" / "nv_4080.nvm").is_file()
    return root


@pytest.fixture(scope="session")
def world(world_dir):
    import silknav

    return silknav.World.load(world_dir)


@pytest.fixture
def world_copy(world_dir, tmp_path) -> Path:
    """A copy of the world to damage."""
    copy = tmp_path / "world"
    shutil.copytree(world_dir, copy)
    return copy


def random_points(n: int, seed: int, margin: float = 100.0) -> np.ndarray:
    """N×2 points over the world and a margin around it."""
    rng = np.random.default_rng(seed)
    xs = rng.uniform(X0 - margin, X1 + margin, n)
    zs = rng.uniform(Z0 - margin, Z1 + margin, n)
    return np.column_stack([xs, zs])


def walkable_points(world, n: int, seed: int) -> np.ndarray:
    """N×2 points on the terrain's walkable ground (not on objects)."""
    out = []
    for x, z in random_points(20 * n, seed, margin=0.0):
        cell = world.cell(x, z)
        if cell is not None and cell.object is None:
            out.append((x, z))
            if len(out) == n:
                return np.array(out)
    raise AssertionError("too little walkable ground")
