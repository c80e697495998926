"""Every query's answers equal the command line's (`--json` batches) on a generated world with
objects: cells, heights (with and without a reference height), line of sight, movement and
paths, and the chains users make of them."""

import numpy as np
import pytest

import silknav
from conftest import X0, Z0, random_points, walkable_points


def f32(value) -> np.float32:
    """A height as the command line prints it (the shortest decimal of an f32), or a float the
    binding returns, as the f32 both stand for."""
    return np.float32(value)


def edge_json(edge):
    if edge is None:
        return None
    return {"region": edge.region, "kind": edge.kind, "index": edge.index}


def cell_json(cell):
    if cell is None:
        return {"region": None, "cell": None, "object": None}
    obj = None
    if cell.object is not None:
        obj = {"owner": cell.object.owner, "uid": cell.object.uid, "cell": cell.object.cell}
    return {"region": cell.region, "cell": cell.cell, "object": obj}


def segments(world, n: int, seed: int) -> np.ndarray:
    """N×4 segments: most from walkable ground, some ending outside the world or the id
    space, some starting on blocked ground."""
    rng = np.random.default_rng(seed)
    starts = walkable_points(world, n, seed)
    ends = starts + rng.normal(0.0, 600.0, starts.shape)
    rows = np.column_stack([starts, ends])
    rows[::17, 2:] = (-10.0, 5.0)  # the end outside the id space
    rows[5::19, :2] = random_points(len(rows[5::19]), seed + 1)  # anywhere, blocked or not
    return rows


def test_cells_equal_the_command_lines(cli, world, world_dir):
    points = random_points(3000, 1)
    answers = cli.batch_json("cell", world_dir, points)
    on_objects = 0
    for (x, z), want in zip(points, answers):
        got = world.cell(x, z)
        assert cell_json(got) == want, (x, z)
        on_objects += got is not None and got.object is not None
    assert on_objects > 10, "some points are on objects"
    # With a reference height: the object floor or ground nearest it.
    rows = np.column_stack([points[:1500], np.linspace(-20.0, 60.0, 1500)])
    answers = cli.batch_json("cell", world_dir, rows)
    for (x, z, y), want in zip(rows, answers):
        assert cell_json(world.cell(x, z, y)) == want, (x, z, y)


def test_heights_equal_the_command_lines(cli, world, world_dir):
    points = random_points(3000, 2)
    answers = cli.batch_json("height", world_dir, points)
    for (x, z), want in zip(points, answers):
        got = world.height(x, z)
        if want["height"] is None:
            assert got is None, (x, z)
        else:
            assert f32(got) == f32(want["height"]), (x, z)
    rows = np.column_stack([points, np.linspace(-20.0, 60.0, len(points))])
    answers = cli.batch_json("height", world_dir, rows)
    differs = 0
    for (x, z, y), want in zip(rows, answers):
        got = world.height(x, z, y)
        assert (got is None) == (want["height"] is None)
        if got is not None:
            assert f32(got) == f32(want["height"]), (x, z, y)
            differs += f32(got) != f32(world.height(x, z))
    assert differs > 0, "some reference heights pick an object floor"


def test_line_of_sight_equals_the_command_lines(cli, world, world_dir):
    rows = segments(world, 600, 3)
    answers = cli.batch_json("los", world_dir, rows)
    seen = {"clear": 0, "blocked": 0, "error": 0}
    for (x1, z1, x2, z2), want in zip(rows, answers):
        try:
            hit = world.raycast(x1, z1, x2, z2)
        except silknav.QueryError as e:
            assert want == {"clear": None, "error": e.reason}
            assert world_los_raises(world, x1, z1, x2, z2)
            seen["error"] += 1
            continue
        if hit is None:
            assert want == {"clear": True}
            assert world.los(x1, z1, x2, z2)
            seen["clear"] += 1
            continue
        seen["blocked"] += 1
        assert not world.los(x1, z1, x2, z2)
        obj = None
        if hit.object_edge is not None:
            e = hit.object_edge
            obj = {"owner": e.owner, "uid": e.uid, "kind": e.kind, "index": e.index}
        # The normal is f32: the command line prints its shortest decimal.
        assert [f32(v) for v in want.pop("normal")] == [f32(v) for v in hit.normal]
        assert want == {
            "clear": False,
            "x": hit.x,
            "z": hit.z,
            "t": hit.t,
            "edge": edge_json(hit.edge),
            "object_edge": obj,
        }, (x1, z1, x2, z2)
    assert all(n > 0 for n in seen.values()), seen
    # From a reference height: the fifth number of a batch line.
    rows5 = np.column_stack([rows[:200], np.full(200, 30.0)])
    answers = cli.batch_json("los", world_dir, rows5)
    for (x1, z1, x2, z2, y), want in zip(rows5, answers):
        try:
            hit = world.raycast(x1, z1, x2, z2, y)
        except silknav.QueryError as e:
            assert want["error"] == e.reason
            continue
        assert want["clear"] == (hit is None)
        if hit is not None:
            assert (want["x"], want["z"], want["t"]) == (hit.x, hit.z, hit.t)


def world_los_raises(world, x1, z1, x2, z2) -> bool:
    try:
        world.los(x1, z1, x2, z2)
    except silknav.QueryError:
        return True
    return False


def object_edge_json(edge):
    if edge is None:
        return None
    return {"owner": edge.owner, "uid": edge.uid, "kind": edge.kind, "index": edge.index}


def move_json(world, row, **options):
    """The binding's walk as the command line's JSON answer."""
    y = None if len(row) == 4 else float(row[4])
    try:
        m = world.move(*row[:4], y, **options)
    except silknav.QueryError as e:
        expected = {"stop": None, "error": e.reason}
        if e.region is not None:
            expected["region"] = e.region
        return expected
    return {
        "x": m.x,
        "z": m.z,
        "height": m.height,
        "stop": m.stop,
        "cell": cell_json(m.cell),
        "edge": edge_json(m.edge),
        "object_edge": object_edge_json(m.object_edge),
    }


def same_move(got, want):
    """Equal, with heights compared as the f32 they stand for."""
    if "height" in want:
        assert f32(got.pop("height")) == f32(want.pop("height"))
    assert got == want


@pytest.mark.parametrize(
    "options, flags",
    [
        ({}, ()),
        ({"guard": "symmetric"}, ("--guard", "symmetric")),
        ({"guard": "off", "object_checks": False}, ("--guard", "off", "--no-object-checks")),
    ],
)
def test_moves_equal_the_command_lines(cli, world, world_dir, options, flags):
    rows = segments(world, 600, 4)
    answers = cli.batch_json("move", world_dir, rows, *flags)
    stops = set()
    for row, want in zip(rows, answers):
        stops.add(want["stop"] or want["error"])
        same_move(move_json(world, row, **options), want)
    assert {"arrived", "wall", "off-mesh"} <= stops, stops
    # With a start height: on a bridge's deck or the ground below.
    rows = np.column_stack([rows[:300], np.linspace(-20.0, 60.0, 300)])
    answers = cli.batch_json("move", world_dir, rows, *flags)
    for row, want in zip(rows, answers):
        same_move(move_json(world, row, **options), want)


def test_an_unknown_guard_is_a_value_error(world):
    with pytest.raises(ValueError, match="one-sided"):
        world.move(X0 + 100, Z0 + 100, X0 + 200, Z0 + 200, guard="both")


def test_snaps_equal_the_command_lines_and_start_walks(cli, world, world_dir):
    points = random_points(1500, 8)
    answers = cli.batch_json("snap", world_dir, points, "--max-distance", "60")
    moved = 0
    for (x, z), want in zip(points, answers):
        s = world.snap(x, z, max_distance=60.0)
        if s is None:
            assert want == {"x": None, "z": None, "distance": None, "cell": None}
            continue
        assert want == {"x": s.x, "z": s.z, "distance": s.distance, "cell": cell_json(s.cell)}
        moved += s.distance > 0
        # The chain users make: the snapped point has its cell, and a walk starts there.
        assert cell_json(world.cell(s.x, s.z)) == cell_json(s.cell)
        try:
            world.move(s.x, s.z, s.x + 1.0, s.z)
        except silknav.QueryError as e:
            assert e.reason != "start-blocked", (x, z, s)
    assert moved > 50, "random points on blocked ground are moved onto walkable ground"
    with pytest.raises(ValueError, match="max_distance"):
        world.snap(X0, Z0, max_distance=-1.0)


@pytest.mark.parametrize(
    "budget, options, flags",
    [
        (None, {}, ()),
        (5, {}, ()),
        (None, {"exact": True}, ("--exact",)),
        (20, {"exact": True, "objects": True}, ("--exact", "--objects")),
        (2000, {"objects": True}, ("--objects",)),
        (None, {"clearance": 0.5}, ("--clearance", 0.5)),
        (None, {"radius": 6.0}, ("--radius", 6.0)),
    ],
)
def test_paths_equal_the_command_lines(cli, world, world_dir, budget, options, flags):
    rows = segments(world, 150, 5)
    flags = flags + (() if budget is None else ("--budget", budget))
    answers = cli.batch_json("path", world_dir, rows, *flags)
    reasons = set()
    for (x1, z1, x2, z2), want in zip(rows, answers):
        try:
            p = world.path(x1, z1, x2, z2, budget=budget, **options)
        except silknav.QueryError as e:
            assert want == {"length": None, "error": e.reason}
            reasons.add(e.reason)
            continue
        reasons.add("found")
        assert want["length"] == p.length
        assert want["exact_length"] == p.exact_length
        assert want["mode"] == ("exact" if p.exact else "walkable")
        assert p.exact == options.get("exact", False)
        assert [tuple(w) for w in want["waypoints"]] == p.waypoints
        assert want["cells"] == [
            {"region": c.region, "cell": c.cell} for c in world.path_cells(p)
        ]
        assert [None if h is None else f32(h) for h in want["heights"]] == [
            None if h is None else f32(h) for h in world.path_heights(p)
        ]
    expected = {"found", "goal-blocked"}
    if budget is not None:
        expected.add("budget-exceeded")
    assert expected <= reasons, reasons


def test_path_starts_on_the_surface_nearest_y(cli, world, world_dir):
    """``y`` is the walker's height at the start, as ``silknav path --y``: under a bridge's
    deck or an upper floor, the path starts on the surface below, and its heights too."""
    rows = []
    for i in range(190):
        for j in range(190):
            x, z = X0 + 40.0 + 30.1 * i, Z0 + 40.0 + 30.3 * j
            top, ground = world.cell(x, z), world.height(x, z)
            if top is None or top.object is None or ground is None:
                continue
            below = world.cell(x, z, ground)
            if below is not None and below != top:
                rows.append((x, z, x + 150.0, z + 40.0, ground))
    assert len(rows) >= 5, "the world has starts under decks and floors"
    rows = rows[:: max(1, len(rows) // 12)]
    budget = 20000
    answers = cli.batch_json("path", world_dir, rows, "--exact", "--objects", "--budget", budget)
    found = 0
    for (x1, z1, x2, z2, y), want in zip(rows, answers):
        try:
            p = world.path(x1, z1, x2, z2, y, budget=budget, exact=True, objects=True)
        except silknav.QueryError as e:
            assert want == {"length": None, "error": e.reason}
            continue
        found += 1
        assert want["length"] == p.length
        assert [tuple(w) for w in want["waypoints"]] == p.waypoints
        heights = world.path_heights(p, y)
        assert [None if h is None else f32(h) for h in want["heights"]] == [
            None if h is None else f32(h) for h in heights
        ]
        assert f32(heights[0]) == f32(world.height(x1, z1, y))
    assert found >= 3, found
    # The batch form: an N×5 array, a height per row (NaN for none), as the single calls.
    table = np.array(rows + [(x1, z1, x2, z2, np.nan) for (x1, z1, x2, z2, _) in rows])
    batch = world.paths(table, budget=budget, exact=True, objects=True)
    assert len(batch) == len(table)
    for i, (x1, z1, x2, z2, y) in enumerate(table):
        y = None if np.isnan(y) else y
        try:
            p = world.path(x1, z1, x2, z2, y, budget=budget, exact=True, objects=True)
        except silknav.QueryError:
            assert batch.status[i] != 0
            continue
        assert batch[i] == p


def test_path_options_out_of_range_are_value_errors(world):
    for options in ({"clearance": 0.0}, {"clearance": 10.0}, {"exact": True, "clearance": 1.0}):
        with pytest.raises(ValueError, match="clearance"):
            world.path(X0 + 100, Z0 + 100, X0 + 300, Z0 + 300, **options)
    for radius in (-1.0, 1e-9, 1000.0, float("nan")):
        with pytest.raises(ValueError, match="radius"):
            world.path(X0 + 100, Z0 + 100, X0 + 300, Z0 + 300, radius=radius)


@pytest.mark.parametrize("objects", [False, True])
def test_a_paths_legs_are_walked_to_their_ends(world_dir, objects):
    """The chain users make: each leg of a path is handed to ``move``, which arrives at its
    end, on the terrain-only world and with the objects (paths go round buildings), started
    at the height ``path_heights`` gives its start and arriving at the one it gives its end;
    each leg of the exact path has line of sight on the
    terrain (exact paths ignore objects); waypoints have heights."""
    world = silknav.World.load(world_dir, objects=objects)
    rows = segments(world, 40, 6)
    legs = 0
    for x1, z1, x2, z2 in rows:
        try:
            p = world.path(x1, z1, x2, z2)
            exact = world.path(x1, z1, x2, z2, exact=True)
        except silknav.QueryError:
            continue
        assert exact.length == p.exact_length <= p.length
        heights = world.path_heights(p)
        assert len(heights) == len(p.waypoints)
        for (ax, az), (bx, bz), y, height in zip(
            p.waypoints, p.waypoints[1:], heights, heights[1:]
        ):
            walk = world.move(ax, az, bx, bz, y=y)
            # The server holds the goal in the start region's frame, in f32: a leg into
            # another region arrives within that rounding of its end.
            assert walk.stop == "arrived", (ax, az, bx, bz, walk)
            assert abs(walk.x - bx) < 1e-3 and abs(walk.z - bz) < 1e-3, (bx, bz, walk)
            assert walk.height == height, (bx, bz, walk, height)
            legs += 1
        for (ax, az), (bx, bz) in zip(exact.waypoints, exact.waypoints[1:]):
            assert objects or world.los(ax, az, bx, bz)
        for x, z in p.waypoints:
            assert world.height(x, z) is not None
    assert legs > 20


def test_terrain_only_worlds_answer_as_the_command_lines_terrain_only(cli, world_dir):
    terrain = silknav.World.load(world_dir, objects=False)
    assert terrain.object_count == 0
    points = random_points(1000, 7)
    answers = cli.batch_json("cell", world_dir, points, "--terrain-only")
    for (x, z), want in zip(points, answers):
        assert cell_json(terrain.cell(x, z)) == want


def test_the_world_describes_itself(world, world_dir):
    assert world.regions == [f"{z:02x}{x:02x}" for z in (64, 65, 66) for x in (128, 129, 130)]
    assert world.object_count > 0
    assert all(isinstance(w, str) for w in world.warnings)
    stats = world.prepare_paths()
    assert stats["corners"] > 0 and stats["heap_bytes"] > 0
    # 3×3 regions: too many corners for a corner table, so the index keeps landmarks.
    assert stats["landmarks"] is True and stats["corner_table"] is False
    assert repr(world).startswith("World(")
    cell = world.cell(X0 + 500, Z0 + 500)
    assert cell is None or cell == world.cell(X0 + 500, Z0 + 500)
    assert world.height(-1.0, 0.0) is None
    assert world.cell(float("nan"), 0.0) is None


def test_a_world_in_an_archive_answers_as_its_folder(cli, world, world_dir, tmp_path):
    """The client's Data.pk2, read in place: packed by the command line, loaded here, with
    the default key and a private one."""
    points = random_points(400, 21)
    rows = segments(world, 60, 22)
    for key in (None, "my-server"):
        archive = tmp_path / f"Data-{key}.pk2"
        options = () if key is None else ("--pk2-key", key)
        cli.run("pk2", "pack", world_dir, "-o", archive, *options)
        packed = silknav.World.load(archive, pk2_key=key)
        assert packed.regions == world.regions
        assert packed.object_count == world.object_count
        for x, z in points:
            assert cell_json(packed.cell(x, z)) == cell_json(world.cell(x, z))
            assert packed.height(x, z) == world.height(x, z)
        for x1, z1, x2, z2 in rows:
            assert move_json(packed, (x1, z1, x2, z2)) == move_json(world, (x1, z1, x2, z2))
        navmesh = silknav.World.load(f"{archive}:navmesh", pk2_key=key)
        assert navmesh.regions == world.regions
    with pytest.raises(silknav.LoadError, match="key"):
        silknav.World.load(tmp_path / "Data-my-server.pk2")
    with pytest.raises(ValueError, match="pk2_key"):
        silknav.World.load(tmp_path / "Data-None.pk2", pk2_key="")


def test_dungeon_queries_equal_the_command_lines(cli, world, world_dir):
    """With `dungeon=ID` the coordinates are that dungeon's own, as `--dungeon ID`'s."""
    rng = np.random.default_rng(21)
    # Points over the generated cave (dungeon 2: two floors of 3 × 3 blocks of 80 units).
    rows = np.column_stack(
        [rng.uniform(-150.0, 150.0, 400), rng.uniform(-150.0, 150.0, 400), rng.choice([1.0, 61.0], 400)]
    )
    cells = cli.batch_json("cell", world_dir, rows, "--dungeon", "2")
    on_blocks = 0
    for (x, z, y), want in zip(rows, cells):
        got = world.cell(x, z, y, dungeon=2)
        assert cell_json(got) == want, (x, z, y)
        on_blocks += got is not None
        if got is not None:
            assert got.region == "8002" and got.object.owner == "8002"
    assert on_blocks > 50, on_blocks
    placed = [row for row, c in zip(rows, cells) if c["region"] is not None]
    pairs = [(a, b) for a, b in zip(placed, placed[7:])][:40]
    moves = cli.batch_json(
        "move", world_dir, [[a[0], a[1], b[0], b[1], a[2]] for a, b in pairs], "--dungeon", "2"
    )
    joined = 0
    for (a, b), want in zip(pairs, moves):
        got = world.move(a[0], a[1], b[0], b[1], a[2], dungeon=2)
        assert (got.x, got.z, got.stop) == (want["x"], want["z"], want["stop"])
        path = None
        try:
            path = world.path(a[0], a[1], b[0], b[1], a[2], dungeon=2)
        except silknav.QueryError as e:
            assert e.reason == "unreachable"
        if path is not None:
            joined += 1
            assert path.dungeon == 2
            heights = world.path_heights(path, a[2])
            assert len(heights) == len(path.waypoints) and heights[-1] is not None
            # Its cells run from the cell at the start to the cell at the goal, at the
            # heights the path gives, as `cell` answers them.
            cells = world.path_cells(path, a[2])
            (x0, z0), (x1, z1) = path.waypoints[0], path.waypoints[-1]
            assert cells[0] == world.cell(x0, z0, heights[0], dungeon=2)
            assert cells[-1] == world.cell(x1, z1, heights[-1], dungeon=2)
    assert joined > 10, joined
