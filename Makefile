# The two commands of the README:
#   make demo   builds sycbuild and runs it on examples/quickstart, end to end
#   make test   runs every test (installs the toolchain first) and prints the
#               conformance summary, "N passed, N failed, N skipped" (and the
#               count of tests of behaviour still missing, MISSING)
GO ?= go
BIN := bin/sycbuild
# The conformance test writes its report here; make test prints it.
REPORT := out/conformance.txt
# Tests list here what they did not check on this machine (testenv.NotChecked);
# make test prints it.
NOT_CHECKED := out/not-checked.txt
# Tests keep here what a reader may want to look at (the build report's pages
# and their screenshots in Chromium).
ARTIFACTS := out/artifacts

.PHONY: all demo test toolchain build lint clean gpu-test

all: build

toolchain:
	scripts/install-toolchain.sh

# The version sycbuild prints: git describe of the checkout (a tag, the
# commits since and the commit; -dirty for a modified tree), when there is one.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null)

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/sycbuild

demo: toolchain build
	examples/quickstart/run.sh $(BIN)

# On a machine with an NVIDIA GPU and CUDA: build device images for nvptx64,
# run every kernel through a small CUDA-driver runtime, check every value.
gpu-test: build
	examples/cuda/gpu-test.sh $(BIN)

# gofmt, go vet, staticcheck (built into .cache/bin by the toolchain
# script; staticcheck.conf says which checks) and the macOS and Windows
# builds, and no function over 80 lines (scripts/funclen.go). Import
# grouping and the package map are checked by go test . (ARCHITECTURE.md).
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	.cache/bin/staticcheck ./...
	GOOS=darwin $(GO) build ./...
	GOOS=windows $(GO) build ./...
	$(GO) run scripts/funclen.go -max 80

# go test shows a passing package's output only with -v, so the conformance
# test also writes its report to $(REPORT), printed here whatever the result.
test: toolchain lint
	@mkdir -p $(dir $(REPORT)) && rm -f $(REPORT) $(NOT_CHECKED)
	@status=0; \
	SYCBUILD_CONFORMANCE_REPORT="$(CURDIR)/$(REPORT)" SYCBUILD_NOT_CHECKED="$(CURDIR)/$(NOT_CHECKED)" \
		SYCBUILD_ARTIFACTS="$(CURDIR)/$(ARTIFACTS)" \
		$(GO) test -race -count=1 -timeout 45m ./... || status=$$?; \
	echo; \
	if [ -s $(NOT_CHECKED) ]; then echo "not checked here:"; sort $(NOT_CHECKED) | sed 's/^/  /'; echo; fi; \
	if [ -f $(REPORT) ]; then cat $(REPORT); else echo "conformance: no report (the conformance test was skipped or did not finish)"; fi; \
	exit $$status

clean:
	rm -rf bin out
