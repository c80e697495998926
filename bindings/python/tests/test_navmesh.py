"""silknav.jmxv.NavMesh: files read and written byte for byte, the dicts equal to the command
line's dump, and an edit through a dict packed as the command line packs it."""

import json

import numpy as np
import pytest

from silknav.jmxv import NavMesh


def navmesh_files(world_dir):
    files = sorted((world_dir / "navmesh").glob("nv_*.nvm"))
    assert len(files) == 9
    return files


def test_files_read_and_write_back_byte_for_byte(world_dir):
    for path in navmesh_files(world_dir):
        data = path.read_bytes()
        mesh = NavMesh.read(path)
        assert mesh.to_bytes() == data
        assert bytes(mesh) == data
        assert NavMesh.parse(data) == mesh
        assert mesh.signature == b"JMXVNVM 1000"
        assert mesh.layout == "standard"


def test_dicts_are_the_command_lines_dump(cli, world_dir):
    for path in navmesh_files(world_dir)[:3]:
        mesh = NavMesh.read(path)
        dump = cli.run("dump", path).stdout
        assert mesh.to_json() == dump
        document = mesh.to_dict()
        assert document == json.loads(dump)
        assert NavMesh.from_dict(document) == mesh
        assert NavMesh.from_json(dump) == mesh
        assert mesh.cell_count == len(document["cells"])
        assert mesh.object_count == len(document["objects"])
        assert mesh.global_edge_count == len(document["global_edges"])
        assert mesh.internal_edge_count == len(document["internal_edges"])
        assert mesh.open_cell_count == document["open_cell_count"]


def test_grids_are_the_documents(world_dir):
    mesh = NavMesh.read(navmesh_files(world_dir)[4])
    document = mesh.to_dict()
    heights = mesh.heights
    assert heights.shape == (97, 97) and heights.dtype == np.float32
    assert np.array_equal(heights.ravel(), np.array(document["heights"], dtype=np.float32))
    tiles = document["tiles"]
    assert mesh.tile_cells.shape == (96, 96) and mesh.tile_cells.dtype == np.uint32
    assert mesh.tile_cells.ravel().tolist() == [t["cell"] for t in tiles]
    assert mesh.tile_flags.ravel().tolist() == [t["flag"] for t in tiles]
    assert mesh.tile_textures.ravel().tolist() == [t["texture"] for t in tiles]
    assert mesh.plane_types.ravel().tolist() == document["plane_types"]
    assert np.array_equal(
        mesh.plane_heights.ravel(), np.array(document["plane_heights"], dtype=np.float32)
    )
    assert mesh.trailing == bytes.fromhex(document["trailing"])
    assert (mesh.tile_flags & 1).any(), "the world has blocked tiles"


def test_an_edit_through_a_dict_packs_as_the_command_line_packs_it(cli, world_dir, tmp_path):
    path = navmesh_files(world_dir)[0]
    document = NavMesh.read(path).to_dict()
    document["heights"][5] = 12.25
    document["heights"][6] = "nan:7fc00001"  # a NaN with a payload survives
    document["trailing"] = "00ff"
    edited = NavMesh.from_dict(document)
    edited_json = tmp_path / "edited.json"
    edited_json.write_text(json.dumps(document))
    packed = tmp_path / "packed.nvm"
    cli.run("pack", edited_json, "-o", packed)
    assert edited.to_bytes() == packed.read_bytes()
    assert edited.heights.ravel()[5] == np.float32(12.25)
    assert np.isnan(edited.heights.ravel()[6])
    assert edited.trailing == b"\x00\xff"
    assert NavMesh.parse(edited.to_bytes()).to_dict() == document


def test_writing_is_atomic_and_never_replaces_unasked(world_dir, tmp_path):
    mesh = NavMesh.read(navmesh_files(world_dir)[1])
    out = tmp_path / "out.nvm"
    mesh.write(out)
    assert out.read_bytes() == mesh.to_bytes()
    other = NavMesh.read(navmesh_files(world_dir)[2])
    with pytest.raises(FileExistsError, match="already exists"):
        other.write(out)
    assert out.read_bytes() == mesh.to_bytes()
    other.write(out, overwrite=True)
    assert out.read_bytes() == other.to_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.nvm"], "no temporary file left"
