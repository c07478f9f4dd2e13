"""Where Cairn's own data is: the folder holding definitions/, schemas/ and grammar/, in an
installed wheel or in the source tree. Apart from files.py, which reads games through the
cache, because the cache and its seed need this place too, and files.py needs them."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def data_root() -> Path:
    """Returns the folder holding definitions/, schemas/ and grammar/ (installed or source)."""
    try:
        packaged = Path(str(resources.files("interpreter").joinpath("_data")))
        if (packaged / "schemas").is_dir():
            return packaged
    except (ModuleNotFoundError, NotADirectoryError):
        pass
    return Path(__file__).resolve().parents[2]


def definitions_root() -> Path:
    return data_root() / "definitions"
