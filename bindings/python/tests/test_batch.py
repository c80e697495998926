"""The batch forms equal the single calls, element by element, whatever array they are given;
their answers are read-only."""

import threading

import numpy as np
import pytest

import silknav
from conftest import random_points, walkable_points


def test_heights_equal_single_calls(world):
    # More points than one parallel task takes, so that the batch is split across threads.
    points = random_points(20_000, 11)
    got = world.heights(points)
    assert got.dtype == np.float32 and got.shape == (len(points),)
    none = 0
    for (x, z), h in zip(points, got):
        want = world.height(x, z)
        if want is None:
            assert np.isnan(h)
            none += 1
        else:
            assert h == np.float32(want)
    assert 0 < none < len(points)


def test_heights_with_reference_heights_equal_single_calls(world):
    points = random_points(5_000, 12)
    ys = np.linspace(-10.0, 60.0, len(points))
    got = world.heights(np.column_stack([points, ys]))
    for (x, z), y, h in zip(points, ys, got):
        want = world.height(x, z, y)
        assert (np.isnan(h) and want is None) or h == np.float32(want)


def test_heights_take_any_array_of_numbers(world):
    points = random_points(300, 13)
    want = world.heights(points)
    # A list, integers, float32, a Fortran-ordered array and a strided view.
    assert np.array_equal(world.heights(points.tolist()), want, equal_nan=True)
    assert np.array_equal(world.heights(np.asfortranarray(points)), want, equal_nan=True)
    wide = np.column_stack([points, np.zeros(len(points))])
    assert np.array_equal(world.heights(wide[:, :2]), want, equal_nan=True)
    rounded = np.round(points).astype(np.int64)
    assert np.array_equal(
        world.heights(rounded), world.heights(rounded.astype(np.float64)), equal_nan=True
    )
    assert world.heights(np.empty((0, 2))).shape == (0,)
    with pytest.raises(ValueError, match="expected an N×2 array, found 3×5"):
        world.heights(np.zeros((3, 5)))


@pytest.mark.parametrize("budget, exact", [(None, False), (4, False), (None, True)])
def test_paths_equal_single_calls(world, budget, exact):
    starts = walkable_points(world, 60, 14)
    ends = np.roll(starts, 1, axis=0)
    segments = np.column_stack([starts, ends])
    segments[::7, 2:] = (1.0, 1.0)  # goals on no loaded region
    batch = world.paths(segments, budget=budget, exact=exact)
    assert len(batch) == len(segments)
    assert batch.offsets[0] == 0 and batch.offsets[-1] == len(batch.waypoints)
    found = 0
    for i, (x1, z1, x2, z2) in enumerate(segments):
        try:
            want = world.path(x1, z1, x2, z2, budget=budget, exact=exact)
        except silknav.QueryError as e:
            assert batch[i] is None
            assert batch.reason(i) == e.reason
            assert silknav.PATH_STATUS[batch.status[i]] == e.reason
            assert np.isnan(batch.length[i])
            assert batch.offsets[i] == batch.offsets[i + 1]
            continue
        found += 1
        assert batch[i] == want
        assert batch.status[i] == 0 and batch.reason(i) is None
        assert batch.length[i] == want.length
        assert batch.exact_length[i] == want.exact_length
        rows = batch.waypoints[batch.offsets[i] : batch.offsets[i + 1]]
        assert [tuple(r) for r in rows] == want.waypoints
    assert 0 < found < len(segments)
    assert batch[-1] == batch[len(batch) - 1]
    with pytest.raises(IndexError):
        batch[len(batch)]
    if budget is not None:
        assert "budget-exceeded" in {batch.reason(i) for i in range(len(batch))}


def test_batch_answers_are_read_only(world):
    batch = world.paths([[0.0, 0.0, 1.0, 1.0]])
    for array in (batch.status, batch.length, batch.offsets, batch.waypoints):
        assert not array.flags.writeable
    with pytest.raises(ValueError):
        batch.length[0] = 1.0
    assert world.heights([[0.0, 0.0]]).flags.writeable, "a fresh array is the caller's"


def test_batches_from_many_threads_at_once_agree(world):
    """A World is shared by threads; batches release the GIL and run side by side."""
    points = random_points(50_000, 15)
    want = world.heights(points)
    results = [None] * 4

    def run(i):
        results[i] = world.heights(points)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in results:
        assert np.array_equal(got, want, equal_nan=True)
