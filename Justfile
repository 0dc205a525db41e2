# The habit file. Every recipe is plain go/node underneath; nothing here is
# needed to run or test folio (see README).

set shell := ["bash", "-euo", "pipefail", "-c"]

# the author's server with live reload, on the sample content
dev *args:
    go run . dev {{args}}

# the production host
serve *args:
    go run . serve {{args}}

# static export into public/ (and an nginx config beside it)
build *args:
    go run . build {{args}}

# parse everything and list problems
check *args:
    go run . check {{args}}

# the whole test suite, as CI runs it
test:
    go test -race -count=1 ./...

# benchmarks (see BENCHMARKS.md for the peer comparisons)
bench:
    go test -run '^$' -bench . -benchmem ./...

# vet, formatting and staticcheck
lint:
    go vet ./...
    test -z "$(gofmt -l $(git ls-files '*.go'))"
    go run honnef.co/go/tools/cmd/staticcheck@2025.1.1 ./...

# refresh golden files after an intended output change
golden:
    go test ./... -run Golden -update

# a static, stripped binary with version information (-buildvcs=auto
# overrides a GOFLAGS=-buildvcs=false, which would drop the commit)
release:
    CGO_ENABLED=0 go build -buildvcs=auto -trimpath -ldflags='-s -w' -o dist/folio .
    ./dist/folio --version
