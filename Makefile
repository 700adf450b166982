# Docport. `make help` lists the targets. `make test` and `make run` install what they need.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

NODE_MODULES_STAMP := node_modules/.package-lock.json
SOURCES := $(shell find src test -name '*.ts' 2>/dev/null) tsconfig.json package.json

.PHONY: help deps build lint test run manifests verify bench clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: $(NODE_MODULES_STAMP) ## Install npm packages, Debian packages (postgres, etcd, chromium, go) and build kube-apiserver (cached in ~/.cache/docport)
	@bash scripts/install-system-deps.sh

dist/.built: $(NODE_MODULES_STAMP) $(SOURCES)
	rm -rf dist
	npx tsc -p tsconfig.json
	@touch $@

build: dist/.built ## Compile TypeScript to dist/

lint: $(NODE_MODULES_STAMP) ## Typecheck and eslint
	npx tsc -p tsconfig.json --noEmit
	npx eslint --max-warnings 0 src test eslint.config.js

test: deps verify ## Verify, then run all tests against real components (TESTS=substring filters files)
	node dist/test/run-tests.js $(TESTS)

run: deps build ## Start the local stack on embedded defaults (Ctrl-C stops it)
	node dist/src/devenv/run-local.js

manifests: build ## Regenerate crds/ from the zod schemas
	node dist/src/tools/generate-manifests.js

verify: build lint ## Fail when generated files are stale or lint fails
	node dist/src/tools/generate-manifests.js --check

bench: deps build ## Print benchmark figures
	node dist/test/bench/run-benchmarks.js

clean: ## Remove build output
	rm -rf dist
