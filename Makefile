# brandlens — see README.md. `make run` serves the API locally on the
# embedded store; `make test` runs every test (it installs the emulators in
# tools/ itself).
SHELL := /bin/bash
GO ?= go
# One bootstrap per build artifact (functions/<artifact>/main.go); the
# functions of template.yaml share them (CodeUri build/<artifact>/).
ARTIFACTS := $(notdir $(wildcard functions/*))
BUILD_DIR := build

.PHONY: run test build generate lint deploy clean tools bench eval

# The AI platforms' SDKs are linked only when they are used: live mode
# builds with the live tag (cmd/brandlens/providers_live.go).
RUN_TAGS := $(if $(filter live,$(BRANDLENS_PROVIDERS)),-tags live)

run:
	@echo "brandlens: building (the first build compiles every dependency and prints nothing for several minutes; later builds take seconds)$(if $(RUN_TAGS), with the live AI platform SDKs,)..."
	$(GO) run $(RUN_TAGS) ./cmd/brandlens serve $(ARGS)

tools: tools/node_modules/.package-lock.json

tools/node_modules/.package-lock.json: tools/package.json tools/package-lock.json
	npm ci --prefix tools --ignore-scripts --no-audit --no-fund
	@touch $@

test: tools
	$(GO) vet ./...
	$(GO) vet -tags live ./cmd/brandlens
	$(GO) test -count=1 -timeout 9m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Detection quality on the labelled corpus (shared/detect/testdata/corpus):
# precision, recall and F1 per class, verdicts and sentiment agreement, both
# halves, beside the naive baseline. DETECT_EVAL_FAILURES=tune lists the
# tuning half's misses.
eval:
	$(GO) test -count=1 -run '^TestCorpus$$' -v ./shared/detect

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags live ./cmd/brandlens

# One arm64 bootstrap per artifact, as provided.al2023 expects.
build: $(ARTIFACTS:%=$(BUILD_DIR)/%/bootstrap)

$(BUILD_DIR)/%/bootstrap: FORCE
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags='-s -w' -o $@ ./functions/$*

# template.yaml from the route table, the workers and the workflows.
generate:
	$(GO) generate ./shared/app

deploy: build
	sam deploy

clean:
	rm -rf $(BUILD_DIR)

.PHONY: FORCE
FORCE:
