#!/usr/bin/env bash
# Runs dowse gen on the example module examples/bank (copied to a
# temporary directory, so the repository stays as it is) and shows what
# dowse wrote.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/dowse" "$root/cmd/dowse"
cp -r "$root/examples/bank" "$work/bank"
cd "$work/bank"
echo "== dowse gen ./...  (in a copy of examples/bank)"
"$work/dowse" gen ./... || true
echo
for f in $(find . -name '*_dowse_test.go' | sort); do
  echo "== $f"
  cat "$f"
  echo
done
for d in $(find . -path '*/testdata/fuzz/*' -type d | sort); do
  n=$(ls "$d" | wc -l)
  first=$(ls "$d" | head -1)
  echo "== $d: $n corpus files written; the first, $first:"
  cat "$d/$first"
  echo
done
echo "== go test ./...  (the generated tests pass with plain go test)"
go test ./...
