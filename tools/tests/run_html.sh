#!/bin/sh
# run_html.sh SRC DIFFCOMP: check --html in headless Chromium. A run with
# an injected hazard writes the site; Chromium loads the index, the test
# follows the first failure link and reads that page's text. Exit 77
# (skipped) when chromium is not installed.
set -u
src=$1 exe=$2
browser=$(command -v chromium || command -v chromium-browser) || {
   echo "run_html.sh: skipped: chromium is not installed (apt-get install chromium)"
   exit 77
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/diffcomp-html-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() {
   echo "run_html.sh: $*" >&2
   exit 1
}
# The DOM as Chromium builds it from a file, no network, no sandbox (root).
dom() {
   "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
      --dump-dom "file://$1" 2>"$tmp/chromium.err"
}
cd "$tmp" || exit 2
"$exe" check "$src/captures/fs_phong.tgsi" "$src/captures/vs_mvp_basic.tgsi" --target a3xx \
   --inject-fault delay-slot-short --no-repro -j 1 --html site >check.out 2>&1
rc=$?
[ "$rc" = 1 ] || fail "check exited $rc, want 1: $(cat check.out)"
dom "$tmp/site/index.html" >index.dom || fail "chromium failed on the index: $(tail -3 chromium.err)"
for want in '<h1>diffcomp check</h1>' 'id="show-fail"' 'class="summary"' \
   'vs_mvp_basic.tgsi</td><td>a3xx</td><td class="st-pass">pass'; do
   grep -qF "$want" index.dom || fail "the index has no '$want'"
done
link=$(grep -o 'href="cases/[^"]*"' index.dom | head -1 | sed 's/^href="//; s/"$//')
[ -n "$link" ] || fail "the index links no failing case"
dom "$tmp/site/$link" >case.dom || fail "chromium failed on $link"
for want in 'fs_phong.tgsi on a3xx' '>hazard<' 'Failing values' '<h3>TGSI</h3>' 'FRAG' \
   '<h3>ref</h3>' '<h3>opt</h3>' 'Pipeline timeline (opt program)' 'class="hz"' \
   'reader' 'producer' 'href="../index.html"'; do
   grep -qF "$want" case.dom || fail "$link has no '$want'"
done
echo "run_html.sh: index and $link load in $("$browser" --version 2>/dev/null)"
