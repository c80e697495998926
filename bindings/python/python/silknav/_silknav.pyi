"""Type stubs of the extension module ``silknav._silknav`` (re-exported by ``silknav`` and
``silknav.jmxv``)."""

import os
from typing import Any, Dict, List, Literal, Optional, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__version__: str

PathLike = Union[str, "os.PathLike[str]"]

PATH_STATUS: List[str]
"""The words of ``PathBatch.status`` codes: ``["found", "start-blocked", "goal-blocked",
"unreachable", "budget-exceeded", "not-walkable"]``."""
DEFAULT_CLEARANCE: float
"""How far (units, along x and z) a walkable path's turning points lie off the corners by
default."""

class Error(Exception):
    """The base class of every error silknav raises."""

class LoadError(Error):
    """A world or a file cannot be loaded: a folder that cannot be listed, an unreadable file,
    two files for one region, a folder from which no region loads. The message is the
    command line's one line."""

    path: Optional[str]
    """The file or folder, or None."""

class FormatError(LoadError):
    """A malformed file: ``str(e)`` is the command line's message,
    ``nv_4080.nvm: offset 420 (0x1a4): cells[12].objects: unexpected end of input (...)``."""

    offset: int
    """The byte offset of the problem from the start of the file."""
    section: str
    """The section being read, named like the JSON keys (``cells[12].objects``)."""
    path: Optional[str]
    """The file, or None for bytes given directly."""

class JsonError(Error):
    """A document that is not the JSON form of a navmesh."""

    json_path: Optional[str]
    """The JSON path of the offending value (``cells[3].min[1]``; ``""`` for the whole
    document), or None for text that is not JSON."""
    line: Optional[int]
    """The 1-based line of a syntax error, else None or 0."""
    column: Optional[int]
    """The 1-based column of a syntax error, else None or 0."""

class WriteError(Error):
    """A navmesh that cannot be written, or a file that cannot be written."""

    section: Optional[str]
    """The section that does not fit its on-disk width or layout, or None."""
    path: Optional[str]
    """The file being written, or None."""

class QueryError(Error):
    """A query that cannot be answered."""

    reason: str
    """The command line's word: ``start-blocked``, ``goal-blocked``, ``unreachable``,
    ``budget-exceeded`` (paths), ``bad-end`` (line of sight), ``off-mesh``,
    ``missing-region``, ``step-limit`` (movement)."""
    region: Optional[str]
    """For ``missing-region``: the region the walk leads into, else None."""

@final
class ObjectCell:
    """The object triangle a point is on."""

    owner: str
    """The instance's owner region, four lower-case hex digits."""
    uid: int
    """The instance's uid in its owner region."""
    cell: int
    """The triangle's index in the object's mesh."""

@final
class Cell:
    """The cell under a point, as ``silknav cell`` answers it."""

    region: str
    """The region, four lower-case hex digits (``"4181"``)."""
    cell: int
    """The cell's index in the region's file (on an object, the terrain cell of the tile)."""
    object: Optional[ObjectCell]
    """The object triangle the point is on, or None on the terrain."""

@final
class Edge:
    """A terrain edge."""

    region: str
    """The region whose file holds it."""
    kind: Literal["internal", "global"]
    """The list of the file that holds it."""
    index: int
    """Its index in that list."""

@final
class ObjectEdge:
    """An edge of an object's mesh."""

    owner: str
    """The instance's owner region."""
    uid: int
    """The instance's uid in its owner region."""
    kind: Literal["outline", "inline"]
    """The mesh's list that holds the edge."""
    index: int
    """Its index in that list."""

@final
class Hit:
    """Where a segment is blocked, as ``silknav los`` answers it."""

    x: float
    """World x of the first blocking point."""
    z: float
    """World z of the first blocking point."""
    t: float
    """How far along the segment: 0 at the start, 1 at the end."""
    edge: Optional[Edge]
    """The terrain wall, or None."""
    object_edge: Optional[ObjectEdge]
    """The object edge that blocks, or None."""
    normal: Tuple[float, float]
    """The wall's unit normal, facing the start."""

@final
class Move:
    """Where a walk stops, as ``silknav move`` answers it."""

    x: float
    """World x of the stop."""
    z: float
    """World z of the stop."""
    height: float
    """The height the server gives the stop (the terrain's, or the object floor's)."""
    stop: Literal["arrived", "wall", "no-edge", "object-wall", "transition", "looped"]
    """Why the walk stopped there."""
    cell: Cell
    """The cell the walk ends in (the walk's own cell, which the server keeps)."""
    edge: Optional[Edge]
    """The wall for ``"wall"``, else None."""
    object_edge: Optional[ObjectEdge]
    """The object's edge for ``"object-wall"``, else None."""

@final
class Snap:
    """The walkable point nearest a point, as ``silknav snap`` answers it."""

    x: float
    """World x of the point."""
    z: float
    """World z of the point."""
    distance: float
    """Its distance from the query point, in world units."""
    cell: Cell
    """Its cell, as ``World.cell`` answers it there."""

@final
class Path:
    """A shortest path, as ``silknav path`` answers it."""

    length: float
    """The length in world units: the sum of the straight legs (walked, for a walkable path)."""
    exact_length: float
    """The exact optimum's length (the path's own when ``exact``)."""
    exact: bool
    """Whether this is the exact optimum; else every leg is walked to its end by ``move``."""
    waypoints: List[Tuple[float, float]]
    """The waypoints ``(x, z)`` from the start to the goal, both included."""

@final
class PathBatch:
    """The answers of ``World.paths``, one per segment."""

    @property
    def status(self) -> npt.NDArray[np.uint8]:
        """0 when a path was found, else the index of the reason in ``PATH_STATUS``."""
    @property
    def length(self) -> npt.NDArray[np.float64]:
        """Each path's length; NaN without a path."""
    @property
    def exact_length(self) -> npt.NDArray[np.float64]:
        """Each path's exact optimum's length; NaN without a path."""
    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        """N + 1 row offsets: path ``i`` is ``waypoints[offsets[i]:offsets[i + 1]]``."""
    @property
    def waypoints(self) -> npt.NDArray[np.float64]:
        """Every path's waypoints one after the other, M×2 world ``(x, z)``."""
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> Optional[Path]:
        """The ``Path`` that ``World.path`` returns for segment ``i``, or None."""
    def reason(self, i: int) -> Optional[str]:
        """Why segment ``i`` has no path, or None when it has one."""

@final
class World:
    """A world of regions in memory, loaded once and queried from any thread, in world
    coordinates (``x = region_x * 1920 + local_x``, likewise ``z``)."""

    @staticmethod
    def load(
        path: PathLike, *, objects: bool = True, pk2_key: Optional[str] = None
    ) -> "World":
        """Loads a world: a folder (the data root or its ``navmesh/`` folder), a PK2 archive
        (``Data.pk2``) or a folder in one (``Data.pk2:navmesh``); ``objects=False`` leaves out
        buildings, gates and bridges; ``pk2_key`` is a private server's archive key. Raises
        ``FormatError`` or ``LoadError`` (a damaged archive: naming the entry and offset),
        ``ValueError`` for a key that is no key."""
    @property
    def regions(self) -> List[str]:
        """The loaded regions, ascending, as four lower-case hex digits."""
    @property
    def warnings(self) -> List[str]:
        """What loading left out or could not use, one line each."""
    @property
    def object_count(self) -> int:
        """The number of object instances placed."""
    def cell(self, x: float, z: float, y: Optional[float] = None) -> Optional[Cell]:
        """The cell under (x, z); with ``y``, the object floor or ground nearest ``y``."""
    def height(self, x: float, z: float, y: Optional[float] = None) -> Optional[float]:
        """The ground height at (x, z) as the server computes it; with ``y``, the height of
        the object floor or ground nearest ``y``. None outside the loaded regions."""
    def raycast(
        self, x1: float, z1: float, x2: float, z2: float, y: Optional[float] = None
    ) -> Optional[Hit]:
        """The first blocking point of the segment, or None when it is clear. Raises
        ``QueryError`` (``start-blocked``, ``bad-end``)."""
    def los(
        self, x1: float, z1: float, x2: float, z2: float, y: Optional[float] = None
    ) -> bool:
        """Whether the line of sight is clear. Raises ``QueryError`` as ``raycast``."""
    def move(
        self,
        x1: float,
        z1: float,
        x2: float,
        z2: float,
        y: Optional[float] = None,
        *,
        guard: Literal["one-sided", "symmetric", "off"] = "one-sided",
        object_checks: bool = True,
    ) -> Move:
        """Where a walk from (x1, z1) toward (x2, z2) stops, as ``silknav move`` (``--y``,
        ``--guard``, ``--no-object-checks``). Raises ``QueryError`` (``start-blocked``,
        ``too-far``, ``off-mesh``, ``missing-region``, ``step-limit``, ``object-refused``),
        ``ValueError`` for an unknown guard."""
    def snap(
        self, x: float, z: float, y: Optional[float] = None, *, max_distance: float = 100.0
    ) -> Optional[Snap]:
        """The walkable point nearest (x, z) within ``max_distance``, or None; as
        ``silknav snap``. Raises ``ValueError`` for a negative or infinite distance."""
    def path(
        self,
        x1: float,
        z1: float,
        x2: float,
        z2: float,
        y: Optional[float] = None,
        *,
        budget: Optional[int] = None,
        exact: bool = False,
        objects: bool = False,
        clearance: Optional[float] = None,
        radius: float = 0.0,
    ) -> Path:
        """The shortest path: walkable by ``move`` leg by leg (turning ``clearance`` off the
        corners), or with ``exact=True`` the exact optimum; with ``objects=True``, through and
        round the world's objects (exact with ``exact=True``, else made walkable), as
        ``silknav path --objects``: far slower;
        ``radius``: the walker's, kept from every wall; ``y``: the walker's height at the
        start (it starts on the surface nearest it, as ``move``'s). Raises ``ValueError`` for a
        clearance out of (0, 10) or with ``exact``,
        ``QueryError`` (``start-blocked``,
        ``goal-blocked``, ``not-walkable``,
        ``unreachable``, ``budget-exceeded``)."""
    def path_cells(self, path: Path, y: Optional[float] = None) -> List[Cell]:
        """The cells a path passes through, in order; in a dungeon, the block triangles each
        leg crosses. ``y``: the walker's height at the start (the ``y`` the path was asked
        with)."""
    def path_heights(self, path: Path, y: Optional[float] = None) -> List[Optional[float]]:
        """Per waypoint, the height a walker walking the legs with ``move``, each from the
        height the one before arrived at (``y=``), stands at there; None where none. ``y``:
        the walker's height at the start (the ``y`` the path was asked with)."""
    def prepare_paths(self) -> Dict[str, Any]:
        """Builds the path index now; its ``rects``, ``corners``, ``edges``, ``heap_bytes``,
        ``build_seconds``, and whether it has a ``corner_table`` (small worlds) or
        ``landmarks`` (the others)."""
    def heights(self, points: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Heights of an N×2 ``(x, z)`` or N×3 ``(x, z, y)`` array, on all cores; NaN where
        ``height`` answers None."""
    def paths(
        self,
        segments: npt.ArrayLike,
        *,
        budget: Optional[int] = None,
        exact: bool = False,
        objects: bool = False,
        clearance: Optional[float] = None,
        radius: float = 0.0,
    ) -> PathBatch:
        """Shortest paths of an N×4 ``(x1, z1, x2, z2)`` array, or N×5 with the walker's
        height at each start (``y``, NaN for none), on all cores, as ``path``."""

@final
class NavMesh:
    """A navmesh file (``nv_XXXX.nvm``), every value kept verbatim."""

    @staticmethod
    def parse(data: bytes) -> "NavMesh":
        """Parses a file's bytes. Raises ``FormatError``."""
    @staticmethod
    def read(path: PathLike) -> "NavMesh":
        """Reads and parses a file. Raises ``FormatError`` or ``LoadError``."""
    @staticmethod
    def from_json(text: str) -> "NavMesh":
        """Reads the JSON form (``silknav dump``). Raises ``JsonError``."""
    @staticmethod
    def from_dict(document: Dict[str, Any]) -> "NavMesh":
        """Reads the JSON form as Python values. Raises ``JsonError``."""
    def to_bytes(self) -> bytes:
        """The file's bytes. Raises ``WriteError``."""
    def __bytes__(self) -> bytes: ...
    def write(self, path: PathLike, *, overwrite: bool = False) -> None:
        """Writes the file atomically; ``FileExistsError`` without ``overwrite=True``."""
    def to_json(self) -> str:
        """The JSON form as text."""
    def to_dict(self) -> Dict[str, Any]:
        """The JSON form as Python values."""
    @property
    def layout(self) -> Literal["standard", "tiles4", "tiles4-noplanes"]: ...
    @property
    def signature(self) -> bytes: ...
    @property
    def open_cell_count(self) -> int: ...
    @property
    def object_count(self) -> int: ...
    @property
    def cell_count(self) -> int: ...
    @property
    def global_edge_count(self) -> int: ...
    @property
    def internal_edge_count(self) -> int: ...
    @property
    def heights(self) -> npt.NDArray[np.float32]:
        """The 97×97 height map, row ``vz``, column ``vx``."""
    @property
    def tile_cells(self) -> npt.NDArray[np.uint32]:
        """The 96×96 tiles' cell indices as stored, row ``tz``, column ``tx``."""
    @property
    def tile_flags(self) -> npt.NDArray[np.uint16]:
        """The 96×96 tiles' flags (bit 0 = blocked)."""
    @property
    def tile_textures(self) -> npt.NDArray[np.uint16]:
        """The 96×96 tiles' texture ids."""
    @property
    def plane_types(self) -> npt.NDArray[np.uint8]:
        """The 6×6 plane types (bit 0 water, bit 1 ice)."""
    @property
    def plane_heights(self) -> npt.NDArray[np.float32]:
        """The 6×6 plane heights."""
    @property
    def trailing(self) -> bytes:
        """The bytes after the last section."""
