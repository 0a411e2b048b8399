# Set-up and everyday commands. `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: venv play test bench clean chromium

venv: $(STAMP)

# Re-install only when the project's metadata changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web,tui]'
	touch $(STAMP)

play: venv
	$(BIN)/boardai play

# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here);
# install it when it is missing and apt can (as root); without it those tests skip loudly.
chromium:
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 \
	  && [ "$$(id -u)" = 0 ] && { apt-get install -y -qq chromium >/dev/null 2>&1 \
	  || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }; } \
	  || echo "make: no chromium and no way to install it: the browser tests will skip"; }

test: venv chromium
	$(BIN)/python -m pytest -n 2 -q

bench: venv
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
