# The two commands of the README: `make run` starts the companion, `make test` runs lint and tests.
# Each creates .venv and installs everything it needs from nothing.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/tucana serve $(ARGS)

lint: $(BIN)/.installed
	$(BIN)/ruff check .

# -n auto: one pytest worker per core (two here); each test is independent of the others' order.
test: lint
	$(BIN)/python -m pytest -n auto $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
