# Set-up and everyday commands. `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: venv play test bench clean

venv: $(STAMP)

# Re-install only when the project's metadata changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: venv
	$(BIN)/boardai play

test: venv
	$(BIN)/python -m pytest -n 2 -q

bench: venv
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
