#!/usr/bin/env bash
# Runs the README's jq recipes against the shipped fixture and checks their answers, so the
# documented JSON and the tool's JSON cannot drift apart. Run from the package root after a build.
set -euo pipefail
tool=${TOOL:-.build/debug/restoration-tool}
fixture=Fixtures/ios8-tabbar.data
failures=0

check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" == "$3" ]; then
        echo "ok: $1"
    else
        echo "FAILED: $1"; echo "  expected: $2"; echo "  actual:   $3"
        failures=$((failures + 1))
    fi
}

json=$("$tool" dump --json "$fixture")

check "objects with a restoration class" \
    "TabController/:[1]:/NavigationController/:[1]:/_TtC20StateRestorationDemo18CityViewController" \
    "$(jq -r '.objects[] | select(.restorationClass != null) | .identifierPath' <<<"$json")"

check "identifier paths in save order" "7" "$(jq -r '.identifierPaths | length' <<<"$json")"

check "every reference target" \
    "TabController/:[0]:/NavigationController
TabController/:[1]:/NavigationController
TabController/:[1]:/NavigationController/:[1]:/_TtC20StateRestorationDemo18CityViewController/MapViewController" \
    "$(jq -r '[.. | objects | select(has("$ref")) | ."$ref"] | unique | .[]' <<<"$json")"

check "views of one object" "TableView" \
    "$(jq -r '.objects[] | select(.identifierPath | endswith("FirstViewController")) | .views | keys[] | split("/") | last' <<<"$json")"

check "timestamp and system" "2014-07-06T16:05:18Z 8.0" "$(jq -r '"\(.timestamp) \(.systemVersion)"' <<<"$json")"

check "scroll offsets" "{0, 128.5}" \
    "$(jq -r '[.objects[].views[] | .kScrollViewContentOffsetKey // empty] | first' <<<"$json")"

check "schema version" "1" "$(jq -r '.schemaVersion' <<<"$json")"

echo "recipes: $((7 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
