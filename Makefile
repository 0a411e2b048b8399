# Set-up and everyday commands. `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: venv play test bench clean system-packages

venv: $(STAMP)

# Re-install only when the project's metadata changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web,tui,dist,nn,train]'
	touch $(STAMP)

play: venv
	$(BIN)/boardai play

# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here)
# and one terminal test runs the full-screen game in tmux: install them when missing and apt can
# (as root); without them those tests skip and say why.
SYSTEM_PACKAGES := chromium tmux

system-packages:
	@for p in $(SYSTEM_PACKAGES); do command -v $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y -qq $$missing >/dev/null 2>&1 \
	    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $$missing >/dev/null 2>&1; } \
	    || echo "make: could not install$$missing: the tests that need them will skip"; \
	  else echo "make: no$$missing and no way to install it: the tests that need it will skip"; fi; \
	fi

test: venv system-packages
	$(BIN)/python -m pytest -n 2 -q

bench: venv
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
