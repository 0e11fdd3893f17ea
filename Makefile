# SetupIQ: `make run` serves everything on http://127.0.0.1:8080, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
CARGO_TARGET_DIR ?= $(CURDIR)/target
export CARGO_TARGET_DIR
BIN := $(CARGO_TARGET_DIR)/release/setupiq
PG_HOST ?= 127.0.0.1
PG_PORT ?= 5432

.PHONY: help run build frontend test lint rust-test openapi openapi-check bench setup pg-banner clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

setup: ## check the toolchain this project needs
	@command -v $(CARGO) >/dev/null || { echo "Rust is required: install it from https://rustup.rs"; exit 1; }
	@mkdir -p data

run: setup build ## build everything and serve it on http://127.0.0.1:8080 (SQLite, local files)
	$(BIN) serve

build: setup frontend ## release binary and the web app
	$(CARGO) build --release --bin setupiq

frontend: ## build the web app (frontend/dist) when the frontend exists
	@if [ -f frontend/package.json ]; then \
		cd frontend && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build; \
	else echo "frontend/ is not there yet: the gateway serves the API and a placeholder page"; fi

test: setup lint openapi-check pg-banner rust-test ## every check and test
	@$(MAKE) --no-print-directory pg-banner

lint: ## rustfmt and clippy (warnings are errors)
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

rust-test: ## Rust unit, service (SQLite + PostgreSQL) and HTTP tests
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		echo "$(CARGO) nextest run --workspace --locked"; $(CARGO) nextest run --workspace --locked; \
	else \
		echo "cargo-nextest not found, using cargo test"; $(CARGO) test --workspace --locked; \
	fi

openapi: ## regenerate openapi/openapi.json from the code
	$(CARGO) run --quiet --bin setupiq -- openapi

openapi-check: ## fail when openapi/openapi.json differs from the code
	$(CARGO) run --quiet --bin setupiq -- openapi --check

bench: setup ## benchmarks (argon2, session lookup); prints figures
	$(CARGO) bench -p setupiq-auth --bench auth

pg-banner:
	@if ! (exec 3<>/dev/tcp/$(PG_HOST)/$(PG_PORT)) 2>/dev/null; then \
		echo; echo "############################################################################"; \
		echo "#  PostgreSQL is not reachable at $(PG_HOST):$(PG_PORT):                                #"; \
		echo "#  the PostgreSQL half of the tests is SKIPPED. Only SQLite was tested.        #"; \
		echo "#  Start PostgreSQL (database 'test', user postgres, trust auth) to run it.   #"; \
		echo "############################################################################"; echo; \
	fi

clean: ## remove build output (keeps data/)
	$(CARGO) clean
	rm -rf frontend/dist
