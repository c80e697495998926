"""Time per height query through the batch form, against the Rust bench's `height_at`.

    python bindings/python/benches/heights.py SILKNAV_BINARY [RUST_NS_PER_QUERY]

Generates the queries bench's world (8×8 regions, seed 1, with `silknav gen`), then times
`World.heights` on 100,000 random points over it: the median of 30 runs, per query, on the
threads rayon uses (all cores unless RAYON_NUM_THREADS says otherwise), both in wall-clock
time and in the CPU time of all the process's threads. On a busy machine a 40 ms call is
descheduled in proportion to the load, while criterion's 1 ms samples often are not, so the
CPU time is the fair comparison there (with RAYON_NUM_THREADS=1 it is the work of one
thread, as in the Rust bench's loop). Every run's answers are checked against the first
run's. With the Rust bench's median per query
(`cargo bench -p silknav-bench --bench queries -- height_at` prints it), prints the ratio
and whether it is within the target of 3×. Also times a loop of single `World.height` calls
for comparison.
"""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import silknav

POINTS = 100_000
RUNS = 30
TARGET_RATIO = 3.0


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    rust_ns = float(sys.argv[2]) if len(sys.argv) == 3 else None
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "world"
        subprocess.run(
            [binary, "gen", "--out", str(root), "--seed", "1", "--size", "8x8"],
            check=True,
            capture_output=True,
        )
        world = silknav.World.load(root, objects=False)
        x0, z0 = 128 * 1920.0, 64 * 1920.0
        rng = np.random.default_rng(1)
        points = np.column_stack(
            [rng.uniform(x0, x0 + 8 * 1920.0, POINTS), rng.uniform(z0, z0 + 8 * 1920.0, POINTS)]
        )
        first = world.heights(points)
        assert not np.isnan(first).any(), "every point is in a loaded region"
        wall, cpu = [], []
        for _ in range(RUNS):
            started, started_cpu = time.perf_counter_ns(), time.process_time_ns()
            got = world.heights(points)
            wall.append(time.perf_counter_ns() - started)
            cpu.append(time.process_time_ns() - started_cpu)
            assert np.array_equal(got, first)
        batch_ns = statistics.median(wall) / POINTS
        cpu_ns = statistics.median(cpu) / POINTS

        single = points[:20_000]
        started = time.perf_counter_ns()
        for x, z in single:
            world.height(x, z)
        single_ns = (time.perf_counter_ns() - started) / len(single)

    print(
        f"World.heights, {POINTS} points, median of {RUNS} runs: {batch_ns:.2f} ns per query "
        f"(wall), {cpu_ns:.2f} ns of CPU per query (all threads)"
    )
    print(f"World.height in a Python loop: {single_ns:.1f} ns per query")
    if rust_ns is not None:
        for what, ns in (("wall", batch_ns), ("CPU", cpu_ns)):
            ratio = ns / rust_ns
            verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
            print(
                f"Rust bench height_at: {rust_ns:.2f} ns per query; batch ({what}) / Rust = "
                f"{ratio:.2f}; target ≤ {TARGET_RATIO}: {verdict}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
