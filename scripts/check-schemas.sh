#!/usr/bin/env bash
# Validates module XML files against docs/schemas/*.xsd with xmllint, choosing the schema by the
# root element (<module> -> module.xsd, <map> -> map.xsd, ..., <scenario> -> scenario.xsd).
# Usage: scripts/check-schemas.sh [FILE...]
#   Without FILEs: every *.xml under modules/ and tests/fixtures/, except the deliberately
#   broken modules in tests/fixtures/broken/. Exits 1 if any file is invalid or has no schema.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(find modules tests/fixtures -name '*.xml' -not -path 'tests/fixtures/broken/*' \
                         2>/dev/null | LC_ALL=C sort)
fi

status=0
declare -A by_schema=()
for f in "${files[@]}"; do
  root=$(xmllint --xpath 'name(/*)' "$f" 2>/dev/null) || {
    echo "$f: not well-formed XML"
    status=1
    continue
  }
  case "$root" in
    module | map | counters | tables | cards | scenario) by_schema[$root]+="$f"$'\n' ;;
    *)
      echo "$f: no schema for root element <$root>"
      status=1
      ;;
  esac
done

for kind in "${!by_schema[@]}"; do
  mapfile -t group < <(printf '%s' "${by_schema[$kind]}")
  xmllint --noout --schema "docs/schemas/$kind.xsd" "${group[@]}" || status=1
done
echo "check-schemas: ${#files[@]} file(s), $([ $status -eq 0 ] && echo ok || echo FAILED)"
exit $status
