#!/bin/sh
# Brings the Debian documentation PDFs of the structure benchmark (bench/structure/documents.ts) into
# bench/.cache/structure (gitignored): each package is fetched with `apt-get download`, unpacked with
# `dpkg-deb -x`, and the chosen files (by package and path, so the set is the same on every Debian
# bookworm machine) are copied to bench/.cache/structure/pdf/ under their base names, gunzipped.
# Usage: sh bench/structure/fetch-debian.sh   (runs `apt-get update` first if a package is unknown)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache="$(cd "$here/../.." && pwd)/bench/.cache/structure"
mkdir -p "$cache/debs" "$cache/root" "$cache/pdf"

# package  path inside it
DOCUMENTS='
r-doc-pdf usr/share/R/doc/manual/R-exts.pdf
r-doc-pdf usr/share/R/doc/manual/R-admin.pdf
r-doc-pdf usr/share/R/doc/manual/R-lang.pdf
r-doc-pdf usr/share/R/doc/manual/R-FAQ.pdf
r-doc-pdf usr/share/R/doc/manual/R-data.pdf
gnuplot-doc usr/share/doc/gnuplot/gnuplot.pdf
maxima-doc usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz
asymptote-doc usr/share/doc/asymptote/asymptote.pdf
lilypond-doc-pdf usr/share/doc/lilypond/html/Documentation/learning.pdf
lilypond-doc-pdf usr/share/doc/lilypond/html/Documentation/extending.pdf
texlive-latex-recommended-doc usr/share/doc/texlive-doc/latex/beamer/beameruserguide.pdf
texlive-latex-recommended-doc usr/share/doc/texlive-doc/latex/microtype/microtype.pdf
texlive-latex-recommended-doc usr/share/doc/texlive-doc/latex/caption/caption.pdf
texlive-latex-recommended-doc usr/share/doc/texlive-doc/latex/mathtools/mathtools.pdf
texlive-metapost-doc usr/share/doc/texlive-doc/metapost/base/mpman.pdf
texlive-metapost-doc usr/share/doc/texlive-doc/metapost/metaobj/momanual.pdf
texlive-lang-english usr/share/doc/texlive-doc/plain/impatient/book.pdf
texlive-lang-english usr/share/doc/texlive-doc/latex/lshort-english/lshort.pdf
texlive-lang-english usr/share/doc/texlive-doc/generic/around-the-bend/AroundTheBend.pdf
texlive-lang-english usr/share/doc/texlive-doc/plain/texbytopic/TeXbyTopic.pdf
texlive-lang-english usr/share/doc/texlive-doc/fonts/memdesign/memdesign.pdf
texlive-lang-english usr/share/doc/texlive-doc/latex/latex2e-help-texinfo/latex2e.pdf
texlive-lang-english usr/share/doc/texlive-doc/latex/simplified-latex/simplified-intro.pdf
texlive-lang-english usr/share/doc/texlive-doc/fonts/fontinstallationguide/fontinstallationguide.pdf
debian-reference-en usr/share/debian-reference/debian-reference.en.pdf
gcl-doc usr/share/doc/gcl-doc/gcl-si.pdf.gz
gprolog-doc usr/share/doc/gprolog-doc/gprolog.pdf
sbcl-doc usr/share/doc/sbcl/sbcl.pdf.gz
dblatex-doc usr/share/doc/dblatex/manual.pdf.gz
developers-reference usr/share/developers-reference/developers-reference.pdf
gmsh-doc usr/share/doc/gmsh-doc/gmsh.pdf.gz
pari-doc usr/share/pari/doc/libpari.pdf
lilypond-doc-pdf usr/share/doc/lilypond/html/Documentation/web.pdf
lilypond-doc-pdf usr/share/doc/lilypond/html/Documentation/contributor.pdf
glpk-doc usr/share/doc/glpk-doc/glpk.pdf
debmake-doc usr/share/doc/debmake-doc/debmake-doc.en.pdf
'

packages=$(echo "$DOCUMENTS" | awk 'NF { print $1 }' | sort -u)
for p in $packages; do
  apt-cache show "$p" >/dev/null 2>&1 || { apt-get update -qq; break; }
done
cd "$cache/debs"
for p in $packages; do
  ls "${p}"_*.deb >/dev/null 2>&1 || apt-get download -q "$p"
  dpkg-deb -x "$(ls "${p}"_*.deb | head -n 1)" "$cache/root"
done

echo "$DOCUMENTS" | while read -r package path; do
  [ -n "$package" ] || continue
  name=$(basename "$path" .gz)
  # A file already brought stays as it is (the cache may be shared between checkouts).
  [ -f "$cache/pdf/$name" ] || case "$path" in
    *.gz) gunzip -c "$cache/root/$path" >"$cache/pdf/$name" ;;
    *) cp "$cache/root/$path" "$cache/pdf/$name" ;;
  esac
  echo "$package $cache/pdf/$name $(pdfinfo "$cache/pdf/$name" 2>/dev/null | awk '/^Pages/ { print $2 }') pages"
done
