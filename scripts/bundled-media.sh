#!/usr/bin/env bash
# Makes the engine's bundled images (Sources/STOLEngine/Resources/BundledMedia) from the
# public-domain and CC0 photographs in ../shared/data/images. Run once when the photographs
# change; its outputs are committed, so neither a build nor the engine needs an image library.
#
#   bash scripts/bundled-media.sh [IMAGES_DIR]
#
# For each photo in IMAGES_DIR/credits.tsv it writes
#   page/<file>       the photograph as it is (at most 800 px on its long side), for a species page;
#   thumbnail/<file>  the photograph scaled to fit 160 x 160 px (JPEG quality 85), for result lists;
# and photos.tsv (file, scientific_name, author, license, source): the credits, without the size
# column (the engine reads width and height from each file's header).
#
# Tools, all Debian packages: djpeg and cjpeg (libjpeg-turbo-progs), pamscale (netpbm).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
images="${1:-$root/../shared/data/images}"
out="$root/Sources/STOLEngine/Resources/BundledMedia"
thumbnail=160
quality=85

for tool in djpeg cjpeg pamscale; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install libjpeg-turbo-progs netpbm" >&2; exit 1; }
done
[ -f "$images/credits.tsv" ] || { echo "no credits.tsv in $images" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/page" "$out/thumbnail"
header="$(head -n 1 "$images/credits.tsv")"
[ "$header" = "$(printf 'file\tscientific_name\tauthor\tlicense\tsource\tsize')" ] || { echo "unexpected credits.tsv header: $header" >&2; exit 1; }
printf 'file\tscientific_name\tauthor\tlicense\tsource\n' > "$out/photos.tsv"
tail -n +2 "$images/credits.tsv" | while IFS=$'\t' read -r file name author license source size; do
    [ -n "$file" ] || continue
    cp "$images/$file" "$out/page/$file"
    djpeg "$images/$file" | pamscale -quiet -xyfit "$thumbnail" "$thumbnail" | cjpeg -quality "$quality" -optimize > "$out/thumbnail/$file"
    printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$name" "$author" "$license" "$source" >> "$out/photos.tsv"
done
echo "wrote $(($(wc -l < "$out/photos.tsv") - 1)) photos to $out ($(du -sk "$out" | cut -f1) KiB)"
