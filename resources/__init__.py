"""The shipped resources (example projects, icons), installed as the package
``rigeditor.resources``: this folder is mapped to it in pyproject.toml."""
