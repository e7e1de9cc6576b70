#!/usr/bin/env bash
# Runs the project's checks and tests (the README's test command).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -Ev '(^|/)testdata/' || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
# The race detector over the packages that run goroutines of their own.
go test -race -short -timeout 15m ./internal/solver/... ./internal/sym/... ./internal/explore/... ./internal/cache/... ./internal/engine/...
go test -timeout 40m ./...
