# Set-up and everyday commands. `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Installs by purpose, into the one .venv: `make play` installs what playing needs (the core
# and the small tui and serve extras, about 300 MB), `make test` adds the test tools, Ray,
# PyTorch and the rest.  Each stamp says what is installed; pyproject.toml changing redoes it.
PLAY_EXTRAS := tui,serve
ALL_EXTRAS  := tui,serve,test,dist,nn,train
PLAY_STAMP  := $(VENV)/.installed-play
STAMP       := $(VENV)/.installed

.PHONY: venv venv-all play test bench warmup clean system-packages

venv: $(PLAY_STAMP)

venv-all: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# After installing, compile the default engines of every game once (numba caches them on disk),
# so the first game does not wait for the compiler.
$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(PLAY_EXTRAS)]'
	$(BIN)/boardai warmup
	touch $(PLAY_STAMP)

# Everything the test suite needs, in the same .venv; it includes what `make play` installs,
# so `make play` afterwards installs nothing.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(ALL_EXTRAS)]'
	touch $(STAMP)
	test -e $(PLAY_STAMP) || $(BIN)/boardai warmup
	touch $(PLAY_STAMP)

warmup: venv
	$(BIN)/boardai warmup

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

test: venv-all system-packages
	$(BIN)/python -m pytest -n 2 -q

bench: venv-all
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
