# Two commands for a fresh machine: `make run` opens the editor on the demo rig,
# `make test` runs the whole suite offscreen. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# setuptools says "Editable installation." (information only) for every editable install
# that is not a src/ layout; the configuration itself builds without a warning.
INSTALL := PYTHONWARNINGS='ignore:Editable installation:UserWarning' $(BIN)/python -m pip install --quiet -e

.PHONY: run test bench package package-test clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(INSTALL) '.[test]'
	$(BIN)/python -c "from rigeditor.core.chains import compiled_loop; compiled_loop(wait=True)"  # compile the chain loop once (cached)
	$(BIN)/python -c "from rigeditor.model.evaluation.constraints.physics_jit import compiled_run; compiled_run(wait=True)"  # and the physics stepping
	$(BIN)/python -c "from rigeditor.core.lazy_kernel import LazyKernel; LazyKernel('rigeditor.core.mesh_raster_jit', 'warm').get(wait=True)"  # and the mesh rasteriser
	$(BIN)/python -c "from rigeditor.core.lazy_kernel import LazyKernel; LazyKernel('rigeditor.core.tint_jit', 'warm').get(wait=True)"  # and the slot colour's tint
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rigeditor

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	$(INSTALL) '.[test,bench]'
	for b in benchmarks/bench_*.py; do QT_QPA_PLATFORM=offscreen $(BIN)/python $$b || exit 1; done

# The desktop bundle: dist/rigeditor/rigeditor (one folder), built with PyInstaller from
# packaging/rigeditor.spec; `make package-test` smoke-tests it offscreen.
package: $(STAMP)
	$(INSTALL) '.[package]'
	$(BIN)/python -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/rigeditor.spec

package-test: package
	sh packaging/smoke.sh dist/rigeditor/rigeditor

clean:
	rm -rf $(VENV) build dist *.egg-info
