"""Silkroad Online's navigation data: a world of regions in memory answering what the game
server answers, and the game's navmesh files byte for byte.

>>> import silknav
>>> world = silknav.World.load("Data")            # the data root, or its navmesh/ folder
>>> world.height(248550, 125870)                  # world x, z -> the ground height, or None
>>> world.path(246110, 123350, 251170, 128170)    # the shortest path, or QueryError

``World`` loads a world folder and answers ``cell``, ``height``, ``raycast``/``los``, ``move``,
``snap`` and ``path`` in world coordinates (``x = region_x * 1920 + local_x``, likewise ``z``), with the
answers of the ``silknav`` command line; ``heights`` and ``paths`` answer numpy arrays of
queries on all cores. ``silknav.jmxv.NavMesh`` reads and writes navmesh files and their JSON
form as dicts. Errors are ``silknav.Error`` and its subclasses.
"""

from ._silknav import (
    DEFAULT_CLEARANCE,
    PATH_STATUS,
    Cell,
    Edge,
    Error,
    FormatError,
    Hit,
    JsonError,
    LoadError,
    Move,
    ObjectCell,
    ObjectEdge,
    Path,
    PathBatch,
    QueryError,
    Snap,
    World,
    WriteError,
    __version__,
)
from . import jmxv

__all__ = [
    "DEFAULT_CLEARANCE",
    "PATH_STATUS",
    "Cell",
    "Edge",
    "Error",
    "FormatError",
    "Hit",
    "JsonError",
    "LoadError",
    "Move",
    "ObjectCell",
    "ObjectEdge",
    "Path",
    "PathBatch",
    "QueryError",
    "Snap",
    "World",
    "WriteError",
    "__version__",
    "jmxv",
]
