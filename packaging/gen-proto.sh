#!/usr/bin/env bash
# gen-proto.sh lints the protocol and regenerates the committed Go code from it with buf and
# the local protoc-gen-go / protoc-gen-go-grpc plugins pinned in tools/go.mod (no network needed).
set -euo pipefail
cd "$(dirname "$0")/../proto"
go tool -modfile=../tools/go.mod buf lint
go tool -modfile=../tools/go.mod buf generate
