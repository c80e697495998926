"""Errors are Python exceptions of silknav's hierarchy, carrying the command line's one-line
messages and the byte offset and section of a malformed file."""

import os

import pytest

import silknav
from silknav.jmxv import NavMesh


def test_the_hierarchy():
    assert issubclass(silknav.FormatError, silknav.LoadError)
    for cls in (silknav.LoadError, silknav.JsonError, silknav.WriteError, silknav.QueryError):
        assert issubclass(cls, silknav.Error)
    assert issubclass(silknav.Error, Exception)
    assert silknav.FormatError.__module__ == "silknav"


def test_a_malformed_file_raises_format_error_with_the_command_lines_message(cli, world_copy):
    path = world_copy / "navmesh" / "nv_4181.nvm"
    data = path.read_bytes()
    path.write_bytes(data[:5000])
    want = cli.error_line("cell", world_copy, 248390, 125870)
    with pytest.raises(silknav.FormatError) as caught:
        silknav.World.load(world_copy)
    e = caught.value
    assert str(e) == want
    assert f"offset {e.offset} (0x{e.offset:x})" in str(e)
    assert 0 < e.offset <= 5000
    assert e.section and f": {e.section}: " in str(e)
    assert e.path is not None and os.path.samefile(e.path, path)
    # The same file read alone: the same offset and section, named as given.
    with pytest.raises(silknav.FormatError) as alone:
        NavMesh.read(path)
    assert (alone.value.offset, alone.value.section) == (e.offset, e.section)
    assert str(alone.value) == cli.error_line("info", path)
    # And from bytes: no path.
    with pytest.raises(silknav.FormatError) as from_bytes:
        NavMesh.parse(data[:5000])
    assert from_bytes.value.path is None
    assert str(from_bytes.value) == str(e).split(": ", 1)[1]


def test_a_bad_signature_names_offset_zero(world_copy):
    path = world_copy / "navmesh" / "nv_4080.nvm"
    path.write_bytes(b"JMXVNVM 1001" + path.read_bytes()[12:])
    with pytest.raises(silknav.FormatError) as caught:
        silknav.World.load(world_copy)
    assert caught.value.offset == 0
    assert caught.value.section == "signature"


def test_folders_that_do_not_load(cli, tmp_path, world_copy):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(silknav.LoadError) as caught:
        silknav.World.load(empty)
    assert str(caught.value) == cli.error_line("cell", empty, 0, 0)
    assert "no region loaded" in str(caught.value)
    assert not isinstance(caught.value, silknav.FormatError)

    missing = tmp_path / "missing"
    with pytest.raises(silknav.LoadError) as caught:
        silknav.World.load(missing)
    assert str(caught.value) == cli.error_line("cell", missing, 0, 0)
    assert isinstance(caught.value.__cause__, FileNotFoundError)
    assert caught.value.path == str(missing)

    navmesh = world_copy / "navmesh"
    (navmesh / "NV_4080.NVM").write_bytes((navmesh / "nv_4080.nvm").read_bytes())
    with pytest.raises(silknav.LoadError) as caught:
        silknav.World.load(world_copy)
    assert str(caught.value) == cli.error_line("cell", world_copy, 0, 0)
    assert "two files for region 4080" in str(caught.value)


def test_queries_that_cannot_be_answered_raise_query_error(world):
    with pytest.raises(silknav.QueryError) as caught:
        world.move(1.0, 1.0, 2.0, 2.0)
    assert caught.value.reason == "start-blocked"
    assert caught.value.region is None
    assert str(caught.value).startswith("start-blocked: ")
    with pytest.raises(silknav.QueryError) as caught:
        world.path(1.0, 1.0, 2.0, 2.0)
    assert caught.value.reason == "start-blocked"
    with pytest.raises(silknav.QueryError) as caught:
        world.raycast(1.0, 1.0, 2.0, 2.0)
    assert caught.value.reason == "start-blocked"


def test_a_bad_document_raises_json_error(cli, world_dir, tmp_path):
    mesh = NavMesh.read(world_dir / "navmesh" / "nv_4080.nvm")
    document = mesh.to_dict()
    document["cells"][3]["min"][1] = "abc"
    with pytest.raises(silknav.JsonError) as caught:
        NavMesh.from_dict(document)
    assert caught.value.json_path == "cells[3].min[1]"
    edited = tmp_path / "edited.json"
    import json

    edited.write_text(json.dumps(document))
    want = cli.error_line("pack", edited, "-o", tmp_path / "out.nvm")
    assert want == f"{edited}: {caught.value}"

    with pytest.raises(silknav.JsonError) as caught:
        NavMesh.from_json('{"signature": ')
    assert caught.value.json_path is None and caught.value.line == 1

    document = mesh.to_dict()
    document["heights"][0] = float("nan")
    with pytest.raises(ValueError):
        NavMesh.from_dict(document)  # NaN must be the form's "nan:XXXXXXXX" string
