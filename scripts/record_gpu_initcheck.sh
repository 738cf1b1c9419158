#!/usr/bin/env bash
# scripts/record_gpu_sanitizer.sh --tool initcheck (what this script was): see that script.
exec "$(dirname "${BASH_SOURCE[0]}")/record_gpu_sanitizer.sh" --tool initcheck "$@"
