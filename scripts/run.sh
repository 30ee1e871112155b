#!/usr/bin/env bash
# Installs, builds, and starts the desktop client on the 1814 module (the fixture module until
# the 1814 module has rules).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
MODULE=modules/napoleon_1814
[ -f "$MODULE/module.xml" ] || MODULE=tests/fixtures/fixture_module
exec build/framework/apps/gui/vedette "$MODULE" "$@"
