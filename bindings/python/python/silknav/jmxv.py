"""The game's navigation files, byte for byte: ``NavMesh`` reads a navmesh (``nv_XXXX.nvm``)
from bytes or a path, writes it back to the same bytes, and converts it to and from its
lossless JSON form (the dicts of ``silknav dump``).

>>> from silknav.jmxv import NavMesh
>>> mesh = NavMesh.read("Data/navmesh/nv_694e.nvm")
>>> document = mesh.to_dict()
>>> document["heights"][0] += 1.0
>>> NavMesh.from_dict(document).write("nv_694e.nvm", overwrite=True)
"""

from ._silknav import NavMesh

__all__ = ["NavMesh"]
