# The two commands of the README:
#   make demo   builds sycbuild and runs it on examples/quickstart, end to end
#   make test   runs every test (installs the toolchain first)
GO ?= go
BIN := bin/sycbuild

.PHONY: all demo test toolchain build lint clean

all: build

toolchain:
	scripts/install-toolchain.sh

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/sycbuild

demo: toolchain build
	examples/quickstart/run.sh $(BIN)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

test: toolchain lint
	$(GO) test -race -count=1 ./...

clean:
	rm -rf bin
