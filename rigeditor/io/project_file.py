"""Load and save project files (``.rigproj``: one JSON document, UTF-8).

Loading: parse strictly (no NaN or Infinity; errors give line and column) -> check
the format name and schema_version -> migrate older versions -> validate types and
ranges field by field (pydantic) -> convert to the model (degrees -> radians) ->
semantic checks (``rigeditor.model.validation.project.problems``). Every problem found is
reported at once in one :class:`ProjectFileError`, each as ``where: what``.

Saving refuses a project that would not load back, writes atomically, and leaves the
previous file untouched on any failure.
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import NamedTuple

import pydantic_core
from pydantic import ValidationError

from rigeditor.io.schema import project as schema
from rigeditor.io.schema.document import Document
from rigeditor.io import json_limits
from rigeditor.io.atomic import atomic_write
from rigeditor.io.schema.convert import to_document, to_project
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.schema.migrations import MIGRATIONS
from rigeditor.io.schema.project import FORMAT, SCHEMA_VERSION
from rigeditor.model.data.project import Project
from rigeditor.model.validation.project import problems as semantic_problems

EXTENSION = ".rigproj"


# ------------------------------------------------------------------------ loading

class Loaded(NamedTuple):
    """A project as read: ``notes`` say what migrating an older file changed that a
    user would see (empty for a current file); ``schema_version`` is the file's."""

    project: Project
    notes: list[str]
    schema_version: int


def load_project(path) -> Project:
    """Read the project file at ``path``; raise ProjectFileError listing every problem."""
    return read_project(path).project


def read_project(path) -> Loaded:
    """:func:`load_project` with the migration's notes and the file's schema_version."""
    path = Path(path)
    try:
        raw = _read_regular_file(path)
    except IsADirectoryError:
        raise ProjectFileError(path, ["open: this is a folder, not a project file"]) from None
    except OSError as exc:
        raise ProjectFileError(path, [f"open: {exc.strerror or exc}"]) from None
    return reads_project(raw, path)


def _read_regular_file(path: Path) -> bytes:
    """The bytes of ``path``; ProjectFileError unless it is a regular file.

    Opened without blocking, then checked on the open descriptor (no window for the
    name to change in between): reading a FIFO would wait forever for a writer, and a
    device or socket is no project either.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise ProjectFileError(path, [f"open: this is {_file_kind(mode)}, not a project file"])
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            return f.read()
    finally:
        if fd >= 0:
            os.close(fd)


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return kind
    return "not a regular file"


def loads_project(raw: bytes | str, path=None) -> Project:
    """The project in ``raw`` (the file's bytes or text); ``path`` is only for messages."""
    return reads_project(raw, path).project


def reads_project(raw: bytes | str, path=None) -> Loaded:
    """:func:`loads_project` with the migration's notes and the file's schema_version."""
    data = _parse(raw, path)
    data, found, notes, version = _migrated(data, path)
    try:
        doc = Document.model_validate(data)
    except ValidationError as exc:
        raise ProjectFileError(path, found + _validation_problems(exc, data)) from None
    project = to_project(doc)
    found += semantic_problems(project)
    if found:
        raise ProjectFileError(path, found)
    return Loaded(project, notes, version)


def older_version(path) -> int | None:
    """The schema_version of the project file at ``path`` when it is older than this
    program writes; None when it is current, missing or not a readable project."""
    try:
        data = _parse(_read_regular_file(Path(path)), path)
    except (OSError, ProjectFileError):
        return None
    version = data.get("schema_version")
    if data.get("format") != FORMAT or not isinstance(version, int) or isinstance(version, bool):
        return None
    return version if 1 <= version < SCHEMA_VERSION else None


def keep_older_file(path) -> Path | None:
    """Before ``path`` is replaced: when it holds an older schema_version N, copy it to
    ``NAME.vN.rigproj`` beside it (older programs still open that one; an existing
    backup is never overwritten: ``NAME.vN-2.rigproj`` and so on). Returns the backup."""
    path = Path(path)
    version = older_version(path)
    if version is None:
        return None
    raw = _read_regular_file(path)
    stem = path.name[:-len(EXTENSION)] if path.name.endswith(EXTENSION) else path.stem
    n = 1
    while True:
        backup = path.with_name(f"{stem}.v{version}{'' if n == 1 else f'-{n}'}{EXTENSION}")
        try:
            f = open(backup, "xb")  # exclusive: another backup is never replaced
        except FileExistsError:
            n += 1
            continue
        except OSError as exc:
            raise ProjectFileError(backup, [f"backup: {exc.strerror or exc} (the older file is unchanged)"]) from None
        try:
            with f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            backup.unlink(missing_ok=True)  # ours: created above
            raise ProjectFileError(backup, [f"backup: {exc.strerror or exc} (the older file is unchanged)"]) from None
        return backup


def _parse(raw, path) -> dict:
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark some editors add
        raw = raw[3:]
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProjectFileError(path, [f"byte {exc.start}: the file is not UTF-8 text"]) from None
    if not raw.strip():
        raise ProjectFileError(path, ["file: empty (a project is a JSON object)"])
    try:
        data = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError as exc:
        raise ProjectFileError(path, [_json_problem(str(exc), raw)]) from None
    if not isinstance(data, dict):
        raise ProjectFileError(path, [f"file: a project is a JSON object, got {_kind(data)}"])
    # Before the migrations see it (a 400-digit integer made them raise OverflowError).
    # A current file goes straight to the schema, which words such values itself, and
    # the parser refuses nesting beyond its own limit: the walk (0.2 s on a
    # 100,000-key file) is spent on older files only.
    older = data.get("schema_version") != SCHEMA_VERSION
    beyond = json_limits.problem(data) if older else None
    if beyond:
        raise ProjectFileError(path, [beyond])
    return data


def _json_problem(message: str, raw: bytes) -> str:
    m = re.search(r"^(.*) at line (\d+) column (\d+)$", message)
    if not m:
        return f"file: not valid JSON ({message})"
    what, line, column = m.group(1), int(m.group(2)), int(m.group(3))
    lines = raw.decode("utf-8").splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    token = text[max(column - 1, 0):].lstrip("-")
    if token.startswith(("NaN", "Infinity")):
        what = "NaN and Infinity are not allowed (numbers must be finite)"
    elif what.startswith("EOF"):
        what = "the file ends too early (" + what + ")"
    return f"line {line}, column {column}: {what}"


def _migrated(data: dict, path) -> tuple[dict, list[str], list[str], int]:
    """The data in the current layout, what the migrations could not convert, their
    notes, and the file's schema_version."""
    fmt = data.get("format")
    if fmt != FORMAT:
        got = "missing" if fmt is None else f"got {_show(fmt)}"
        raise ProjectFileError(path, [f'format: not a RigEditor project (expected "{FORMAT}", {got})'])
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        got = "missing" if version is None else f"got {_show(version)}"
        raise ProjectFileError(path, [f"schema_version: must be an integer, {got}"])
    if version > SCHEMA_VERSION:
        raise ProjectFileError(path, [
            f"schema_version: this file was written by a newer RigEditor (schema_version {version}); "
            f"this version reads schema_version 1 to {SCHEMA_VERSION}: update RigEditor to open it"])
    if version < 1:
        raise ProjectFileError(path, [f"schema_version: unknown version {version} (the first is 1)"])
    found: list[str] = []
    notes: list[str] = []
    original = version
    while version < SCHEMA_VERSION:
        data, problems, said = MIGRATIONS[version](data)
        found += problems
        notes += said
        version += 1
    return data, found, notes, original


# ------------------------------------------------------------ validation messages

_TYPE_NAMES = {
    "float_type": "a number", "int_type": "an integer", "string_type": "a string",
    "bool_type": "true or false", "dict_type": "an object", "model_type": "an object",
    "model_attributes_type": "an object", "list_type": "a list", "none_required": "null",
}


def _validation_problems(exc: ValidationError, data) -> list[str]:
    errors = exc.errors()
    found = [_message(e) for e in errors]
    if all(e["type"] == "range" for e in errors):
        # Only ranges are wrong: the project can still be built, so the semantic
        # checks run too and the user sees every problem at once.
        project = to_project(Document.model_validate(data, context={"lenient": True}))
        reported = {p.split(": ", 1)[0] for p in found}
        found += [p for p in semantic_problems(project) if p.split(": ", 1)[0] not in reported]
    return found


def _message(err) -> str:
    where = _location(err["loc"])
    kind = err["type"]
    got = _show(err.get("input"))
    if kind == "missing":
        return f"{where}: missing (required)"
    if kind == "extra_forbidden":
        return f"{where}: unknown field"
    if kind == "range":
        return f"{where}: {err['msg']}"
    if kind in _TYPE_NAMES:
        return f"{where}: must be {_TYPE_NAMES[kind]}, got {got}"
    if kind == "finite_number":
        return f"{where}: must be a finite number, got {got}"
    if kind == "literal_error":
        return f"{where}: must be one of {err['ctx']['expected'].replace(' or ', ', ')}, got {got}"
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"{where}: must be a frame number within +/-{schema.MAX_FRAME:,}, got {got}"
    if kind in ("too_short", "too_long"):
        ctx = err.get("ctx", {})
        wanted = ctx.get("min_length", ctx.get("max_length"))
        return f"{where}: expected {wanted} numbers, got {ctx.get('actual_length')}"
    return f"{where}: {err['msg']}, got {got}"


def _location(loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "file"


def _show(value) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value) -> str:
    return {list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")


# ------------------------------------------------------------------------- saving

def save_project(project: Project, path) -> None:
    """Write ``project`` to ``path`` atomically (see :func:`dumps_project` for refusals)."""
    atomic_write(path, dumps_project(project, path).encode("utf-8"))


def dumps_project(project: Project, path=None) -> str:
    """The file text of ``project``; ProjectFileError when it would not load back."""
    try:
        found = semantic_problems(project)
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        found = [f"project: holds a value of the wrong type ({type(exc).__name__}: {exc})"]
    if found:
        raise ProjectFileError(path, found)
    try:
        data = to_document(project)
    except (TypeError, ValueError, AttributeError) as exc:
        raise ProjectFileError(path, [f"project: holds a value that cannot be saved "
                                      f"({type(exc).__name__}: {exc})"]) from None
    try:
        return _dumps(data) + "\n"
    except (TypeError, ValueError):
        raise ProjectFileError(path, [_unserialisable(data)]) from None


def _dumps(obj, depth: int = 0) -> str:
    """Readable JSON: one object per nesting level, flat objects and every key on one line."""
    pad, end = "  " * (depth + 1), "  " * depth
    if isinstance(obj, dict) and not _flat(obj):
        items = []
        for k, v in obj.items():
            text = _key_list(v, depth + 1) if k == "keys" and v else _dumps(v, depth + 1)
            items.append(f"{pad}{json.dumps(k)}: {text}")
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(obj, list) and not _flat(obj):
        return "[\n" + ",\n".join(pad + _dumps(v, depth + 1) for v in obj) + "\n" + end + "]"
    return json.dumps(obj, allow_nan=False, ensure_ascii=False)


def _key_list(keys: list, depth: int) -> str:
    """A list of flat keys, one per line, formatted by one json.dumps call (fast)."""
    pad, end = "  " * (depth + 1), "  " * depth
    text = json.dumps(keys, allow_nan=False, ensure_ascii=False)[1:-1]
    if text.count("}, {") != len(keys) - 1:  # a name holds the separator: do it one by one
        return "[\n" + ",\n".join(pad + json.dumps(k, allow_nan=False, ensure_ascii=False)
                                  for k in keys) + "\n" + end + "]"
    return "[\n" + pad + text.replace("}, {", "},\n" + pad + "{") + "\n" + end + "]"


def _flat(obj) -> bool:
    values = obj.values() if isinstance(obj, dict) else obj
    return all(not isinstance(v, (dict, list)) or (isinstance(v, list) and
               all(not isinstance(x, (dict, list)) for x in v)) for v in values)


def _unserialisable(data, where="") -> str | None:
    """Where the first value JSON cannot hold sits, as a problem line."""
    if isinstance(data, dict):
        items = ((f"{where}.{k}" if where else str(k), v) for k, v in data.items())
    elif isinstance(data, list):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(data))
    elif isinstance(data, float) and not math.isfinite(data):
        return f"{where}: cannot save {data!r}: numbers must be finite"
    elif not isinstance(data, (str, int, float, bool, type(None))):
        return f"{where}: cannot save a value of type {type(data).__name__}"
    else:
        return None
    for w, v in items:
        found = _unserialisable(v, w)
        if found:
            return found
    return None if where else "project: cannot be written as JSON"
