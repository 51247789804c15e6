"""Files: the versioned project file (load, validate, migrate, atomic save) and the
exports (curves as CSV or JSON, Spine JSON); the examples as files are
``rigeditor.examples.files``. No Qt: the PNG renderers live in the app
package and the command line loads them lazily."""
from rigeditor.io.errors import ExportError, ProjectFileError
from rigeditor.io.curves.write_csv import export_curves_csv
from rigeditor.io.curves.write_json import export_curves_json
from rigeditor.io.spine.write import export_spine_json
from rigeditor.io.project_file import (
    EXTENSION, dumps_project, load_project, loads_project, save_project,
)
from rigeditor.io.schema.project import FORMAT, SCHEMA_VERSION

__all__ = [
    "ExportError", "ProjectFileError",
    "export_curves_csv", "export_curves_json", "export_spine_json",
    "EXTENSION", "dumps_project", "load_project", "loads_project", "save_project", "FORMAT",
    "SCHEMA_VERSION",
]
