#!/bin/sh
# Extracts Porthole's translatable strings into a gettext template (make pot).
# Usage: po/make-pot.sh [POT [POTFILES]]   (defaults: po/porthole.pot, po/POTFILES)
# Run from the checkout's top. The files are every Swift source that calls tr(), trn() or trc();
# their string literals read as C literals, which xgettext's C parser extracts (the calls take
# one plain literal each: no interpolation, no multi-line literals).
set -eu
pot=${1:-po/porthole.pot}
potfiles=${2:-po/POTFILES}
grep -rlE '(^|[^A-Za-z0-9_.])tr[nc]?\("' Sources --include='*.swift' | LC_ALL=C sort > "$potfiles"
xgettext --language=C --from-code=UTF-8 --no-wrap --sort-by-file --add-location=file \
  --keyword= --keyword=tr --keyword=trn:1,2 --keyword=trc:1c,2 \
  --add-comments=TRANSLATORS: --package-name=porthole --msgid-bugs-address=porthole@localhost \
  --files-from="$potfiles" --output="$pot.tmp" 2>"$pot.err" || { cat "$pot.err" >&2; rm -f "$pot.err"; exit 1; }
# Swift's """ literals read as C as strings cut at the line end; xgettext says so for each line
# and carries on in step (a tr() call never sits inside one: the tests check every call arrives).
grep -v 'warning: unterminated string literal' "$pot.err" >&2 || true
rm -f "$pot.err"
# The desktop entry's and the AppStream metainfo's words (msgfmt --desktop and --xml put the
# translations back at install): the entry's GenericName, Comment and Keywords (its Name is
# the program's), and the metainfo's translatable elements, by the ITS rules gettext ships.
xgettext --from-code=UTF-8 --no-wrap --add-location=file --keyword= --keyword=GenericName --keyword=Comment --keyword=Keywords \
  -L Desktop --output="$pot.desktop" Resources/dev.porthole.Porthole.desktop
xgettext --from-code=UTF-8 --no-wrap --add-location=file --output="$pot.metainfo" Resources/dev.porthole.Porthole.metainfo.xml
for part in "$pot.tmp" "$pot.desktop" "$pot.metainfo"; do sed -i 's/charset=CHARSET/charset=UTF-8/' "$part"; done
msgcat --no-wrap --use-first --output-file="$pot.all" "$pot.tmp" "$pot.desktop" "$pot.metainfo"
mv "$pot.all" "$pot.tmp"
rm -f "$pot.desktop" "$pot.metainfo"
# The header's creation date changes on every run; keep it out so the template only changes
# when the strings do.
sed -e '/^"POT-Creation-Date: /d' -e 's/^"Content-Type: text\/plain; charset=CHARSET/"Content-Type: text\/plain; charset=UTF-8/' "$pot.tmp" > "$pot"
rm -f "$pot.tmp"
