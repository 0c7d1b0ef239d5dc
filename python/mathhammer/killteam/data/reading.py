"""Reading BattleScribe files safely: XML through defusedxml, zipped rosters member by member.

Every file is read through :func:`mathhammer.core.guard.read_bytes` (a regular file of at most
16 MiB) and parsed by defusedxml with document types refused, so no entity is ever expanded and no
external reference followed (docs/data.md, "Untrusted files"). A ``.rosz`` is a zip archive holding
one ``.ros``: its members are checked (how many, their names, their declared sizes) before anything
is decompressed, and the roster is read with a bound on its size whatever the archive claims.
Nothing here opens a path named inside a file.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

import defusedxml
import defusedxml.ElementTree as safe_xml

from mathhammer.core.guard import MAX_FILE_BYTES, excerpt, read_bytes
from mathhammer.errors import InputError, ProfileFileError

__all__ = ["MAX_ROSZ_BYTES", "MAX_ROSZ_MEMBERS", "XmlFile", "child", "children", "read_xml", "text_of"]

#: The most a zipped roster may hold once decompressed, all members together.
MAX_ROSZ_BYTES = 64 * 1024 * 1024
#: The most members a zipped roster may have (the apps write one).
MAX_ROSZ_MEMBERS = 16
#: What the schema namespaces of BattleScribe files start with.
NAMESPACE = "http://www.battlescribe.net/schema/"
ROOTS = ("gameSystem", "catalogue", "roster")


@dataclass(frozen=True)
class XmlFile:
    """One parsed file: its name (the file name only, as reports show it), the path it was read
    from, the SHA-256 of its bytes (of the ``.ros`` inside a ``.rosz``: the file itself for a
    ``.rosz``), and its root element with the namespace taken off every tag."""

    name: str
    path: Path
    sha256: str
    root: Element
    size: int = 0  # the bytes read from the file

    @property
    def kind(self) -> str:
        """``gameSystem``, ``catalogue`` or ``roster``."""
        return self.root.tag

    def attribute(self, name: str) -> str:
        return self.root.get(name, "")


def read_xml(path: Path) -> XmlFile:
    """A BattleScribe file (``.gst``, ``.cat``, ``.ros`` or ``.rosz``) parsed; a file that is not
    one is a ProfileFileError naming it and saying what was expected."""
    data = _read(path)
    digest = hashlib.sha256(data).hexdigest()
    size = len(data)
    if path.suffix.lower() == ".rosz":
        data = _unzip(path, data)
    root = _parse(path, data)
    return XmlFile(path.name, path, digest, root, size)


def _read(path: Path) -> bytes:
    try:
        return read_bytes(path, str(path))
    except InputError as error:  # no such file, not a regular file, too large
        raise ProfileFileError(str(path), str(error).split(": ", 1)[1]) from None


def _parse(path: Path, data: bytes) -> Element:
    try:
        root = safe_xml.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except defusedxml.DefusedXmlException as error:
        raise ProfileFileError(str(path), f"refused: the XML declares a document type or entities ({type(error).__name__}); "
                               "BattleScribe files have none") from None
    except safe_xml.ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        raise ProfileFileError(str(path), f"not well-formed XML (line {line}, column {column}); "
                               "expected a BattleScribe data file") from None
    except (LookupError, UnicodeError) as error:  # an encoding the declaration names that Python lacks
        raise ProfileFileError(str(path), f"unreadable text ({excerpt(str(error), 60)[1:-1]}); BattleScribe files are "
                               "UTF-8") from None
    namespace = ""
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.startswith("{"):
            uri, _, local = element.tag[1:].partition("}")
            namespace = namespace or uri
            element.tag = local
    if root.tag not in ROOTS or (namespace and not namespace.startswith(NAMESPACE)):
        raise ProfileFileError(str(path), f"root element <{excerpt(root.tag, 30)[1:-1]}>: expected <gameSystem>, "
                               "<catalogue> or <roster> of a BattleScribe data file")
    return root


def _unzip(path: Path, data: bytes) -> bytes:
    """The ``.ros`` inside a ``.rosz``, its members checked before any is decompressed."""
    source = str(path)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ProfileFileError(source, "not a zip archive; expected a .rosz holding one .ros roster") from None
    with archive:
        members = archive.infolist()
        if not 1 <= len(members) <= MAX_ROSZ_MEMBERS:
            raise ProfileFileError(source, f"{len(members)} members; expected one .ros roster "
                                   f"(at most {MAX_ROSZ_MEMBERS} members)")
        for member in members:
            name = member.filename
            if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name or ":" in name:
                raise ProfileFileError(source, f"member {excerpt(name)}: expected a plain file name such as 'list.ros'")
            if member.flag_bits & 0x1:
                raise ProfileFileError(source, f"member {excerpt(name)} is encrypted; expected a plain .ros")
        total = sum(member.file_size for member in members)
        if total > MAX_ROSZ_BYTES:
            raise ProfileFileError(source, f"the members would decompress to {total} bytes; at most {MAX_ROSZ_BYTES}")
        rosters = [member for member in members if member.filename.lower().endswith(".ros")]
        if len(rosters) != 1:
            raise ProfileFileError(source, f"{len(rosters)} .ros members; expected exactly one roster")
        member = rosters[0]
        if member.file_size > MAX_FILE_BYTES:
            raise ProfileFileError(source, f"member {excerpt(member.filename)} of {member.file_size} bytes is too "
                                   f"large; at most {MAX_FILE_BYTES}")
        try:
            with archive.open(member) as stream:
                content = stream.read(MAX_FILE_BYTES + 1)  # bounded, whatever the header says
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as error:
            raise ProfileFileError(source, f"member {excerpt(member.filename)} cannot be read: {error}") from None
    if len(content) > MAX_FILE_BYTES:
        raise ProfileFileError(source, f"member {excerpt(member.filename)} is too large; at most {MAX_FILE_BYTES} bytes")
    return content


# --- reading elements ---------------------------------------------------------------------------

def children(element: Element, container: str, tag: str) -> list[Element]:
    """``element/container/tag``: the elements of one list of the schema (``profiles/profile``)."""
    found: list[Element] = []
    for box in element.findall(container):
        found.extend(box.findall(tag))
    return found


def child(element: Element, tag: str) -> Element | None:
    return element.find(tag)


def text_of(element: Element) -> str:
    """A characteristic's value: its text, or its ``value`` attribute in older files."""
    text = element.text
    if text is not None and text.strip():
        return text
    return element.get("value", text or "")
