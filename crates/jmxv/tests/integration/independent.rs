//! Files written by another implementation of the spec (the test kit's independent writer,
//! from the spec page's ImHex pattern) decode to exactly the values it wrote, in all three
//! layouts and with odd values, and write back byte for byte.

use jmxv::nvm::{Layout, NavMesh};
use silknav_testkit::second_writer::nvm::SpecFile;

fn check(spec: &SpecFile) {
    let bytes = spec.to_bytes();
    let mesh = NavMesh::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mesh.to_vec().unwrap(), bytes, "byte-identical write");
    assert_eq!(mesh.signature, spec.signature);
    let expected_layout = match (spec.four_byte_tiles, spec.planes.is_some()) {
        (false, _) => Layout::Standard,
        (true, true) => Layout::Tiles4,
        (true, false) => Layout::Tiles4NoPlanes,
    };
    assert_eq!(mesh.layout, expected_layout);
    assert_eq!(mesh.objects.len(), spec.objects.len());
    for (o, (id, pos, stat, yaw, uid, unk, big, st, rid, links)) in
        mesh.objects.iter().zip(&spec.objects)
    {
        assert_eq!(o.object_id, *id);
        assert_eq!(o.position.map(|p| p.to_bits()), *pos);
        assert_eq!(
            (o.kind, o.yaw.to_bits(), o.uid, o.short0),
            (*stat, *yaw, *uid, *unk)
        );
        assert_eq!((o.is_big, o.is_struct, o.region_id), (*big, *st, *rid));
        let got: Vec<[u16; 3]> = o
            .links
            .iter()
            .map(|l| [l.link_object, l.link_edge, l.edge])
            .collect();
        assert_eq!(&got, links);
    }
    assert_eq!(mesh.open_cell_count, spec.open_cells);
    assert_eq!(mesh.cells.len(), spec.cells.len());
    for (c, (rect, objs)) in mesh.cells.iter().zip(&spec.cells) {
        assert_eq!(
            [c.min[0], c.min[1], c.max[0], c.max[1]].map(|v| v.to_bits()),
            *rect
        );
        assert_eq!(&c.objects, objs);
    }
    for (e, (line, flag, dir, cell, region)) in mesh.global_edges.iter().zip(&spec.global_edges) {
        assert_eq!([e.a[0], e.a[1], e.b[0], e.b[1]].map(|v| v.to_bits()), *line);
        assert_eq!(
            (e.flag, e.dir, e.cell, e.region),
            (*flag, *dir, *cell, *region)
        );
    }
    for (e, (line, flag, dir, cell)) in mesh.internal_edges.iter().zip(&spec.internal_edges) {
        assert_eq!([e.a[0], e.a[1], e.b[0], e.b[1]].map(|v| v.to_bits()), *line);
        assert_eq!((e.flag, e.dir, e.cell), (*flag, *dir, *cell));
    }
    assert_eq!(
        (mesh.global_edges.len(), mesh.internal_edges.len()),
        (spec.global_edges.len(), spec.internal_edges.len())
    );
    for (t, (cell, flag, texture)) in mesh.tiles.iter().zip(&spec.tiles) {
        assert_eq!(
            (t.cell_index, t.flag, t.texture_id),
            (*cell, *flag, *texture)
        );
    }
    assert!(mesh
        .heights
        .iter()
        .map(|h| h.to_bits())
        .eq(spec.heights.iter().copied()));
    match &spec.planes {
        Some((types, heights)) => {
            assert_eq!(&mesh.planes.types[..], &types[..]);
            assert!(mesh
                .planes
                .heights
                .iter()
                .map(|h| h.to_bits())
                .eq(heights.iter().copied()));
        }
        None => assert!(mesh.planes.is_zero()),
    }
    assert_eq!(mesh.trailing, spec.trailing);
}

#[test]
fn files_of_an_independent_writer_decode_exactly_in_every_layout() {
    for seed in 0..60 {
        for layout in 0..3 {
            check(&SpecFile::random(seed, layout));
        }
    }
}
