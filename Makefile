# Two commands for a fresh machine: `make run` opens the editor on the demo rig,
# `make test` runs the whole suite offscreen. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rigeditor

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	for b in benchmarks/bench_*.py; do QT_QPA_PLATFORM=offscreen $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build dist *.egg-info
