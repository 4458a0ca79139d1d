#!/usr/bin/env bash
# Installs or removes Fresh's programs under a prefix (`make install`, `make uninstall`).
#
#   Tools/install.sh install PREFIX BIN_DIR     programs from BIN_DIR, man pages, completions
#   Tools/install.sh uninstall PREFIX           what the last install wrote, and nothing else
#
# Under PREFIX: bin/ (fresh, fresh-reader, fresh-mock and fresh-postgresql, stripped of their symbols: a release
# build's programs carry the Swift runtime, 169 MB unstripped), share/man/man1/ (a page per command,
# from the programs' own help: Tools/man-pages.py), and completion scripts for bash
# (share/bash-completion/completions), zsh (share/zsh/site-functions) and fish
# (share/fish/vendor_completions.d), which complete source and collection names too. The files
# written are listed in share/fresh/installed-files, which uninstall reads.
set -euo pipefail

PROGRAMS=(fresh fresh-reader fresh-mock)
# Run by fresh in its place for a command that opens a PostgreSQL mirror: installed beside it,
# with no man page or completions of its own (its commands and help are fresh's).
HELPERS=(fresh-postgresql)
action=${1:?usage: install.sh install PREFIX BIN_DIR | uninstall PREFIX}
prefix=${2:?give the prefix, e.g. ~/.local}
manifest="$prefix/share/fresh/installed-files"

case "$action" in
install)
    bin=${3:?give the directory of the built programs}
    tools=$(cd "$(dirname "$0")" && pwd)
    [ -f "$manifest" ] && "$0" uninstall "$prefix" >/dev/null
    mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
        "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" "$prefix/share/fresh"
    written=()
    for helper in "${HELPERS[@]}"; do
        install -m 0755 --strip "$bin/$helper" "$prefix/bin/$helper"
        written+=("$prefix/bin/$helper")
    done
    for program in "${PROGRAMS[@]}"; do
        install -m 0755 --strip "$bin/$program" "$prefix/bin/$program"
        written+=("$prefix/bin/$program")
        pages=$(mktemp -d)
        python3 "$tools/man-pages.py" "$bin/$program" "$pages" >/dev/null
        for page in "$pages"/*.1; do
            install -m 0644 "$page" "$prefix/share/man/man1/"
            written+=("$prefix/share/man/man1/$(basename "$page")")
        done
        rm -rf "$pages"
        "$bin/$program" --generate-completion-script bash >"$prefix/share/bash-completion/completions/$program"
        "$bin/$program" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_$program"
        "$bin/$program" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/$program.fish"
        written+=("$prefix/share/bash-completion/completions/$program" "$prefix/share/zsh/site-functions/_$program"
            "$prefix/share/fish/vendor_completions.d/$program.fish")
    done
    printf '%s\n' "${written[@]}" >"$manifest"
    size=$(du -ch "${PROGRAMS[@]/#/$prefix/bin/}" "${HELPERS[@]/#/$prefix/bin/}" | tail -1 | cut -f1)
    echo "installed ${PROGRAMS[*]} ${HELPERS[*]} (stripped, $size in all) in $prefix/bin"
    echo "  $(grep -c '/man1/' "$manifest") man pages in $prefix/share/man/man1 (man fresh-sync)"
    echo "  completions in $prefix/share/bash-completion/completions, $prefix/share/zsh/site-functions and $prefix/share/fish/vendor_completions.d"
    case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" ;; esac
    ;;
uninstall)
    if [ ! -f "$manifest" ]; then
        echo "nothing installed under $prefix (no $manifest)"
        exit 0
    fi
    count=0
    while IFS= read -r file; do
        case "$file" in "$prefix"/*) rm -f -- "$file" && count=$((count + 1)) ;; esac
    done <"$manifest"
    rm -f -- "$manifest"
    rmdir -- "$prefix/share/fresh" 2>/dev/null || true
    echo "removed $count files from $prefix"
    ;;
*)
    echo "install.sh: unknown action '$action' (install or uninstall)" >&2
    exit 64
    ;;
esac
