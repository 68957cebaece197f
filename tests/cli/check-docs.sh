#!/usr/bin/env bash
# The commands and options in 'kstatsctl --help' (and each command's
# --help), in kstatsctl(8) and in the bash completion must be the same.
# Usage: check-docs.sh KSTATSCTL
set -uo pipefail
bin=${1:?usage: check-docs.sh KSTATSCTL}
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/man/kstatsctl.8
comp=$top/completion/kstatsctl.bash
bad=0

words() { tr ' ' '\n' | sed '/^$/d' | sort -u | xargs; }
same() {	# same WHAT HELP MAN COMPLETION
	if [[ $2 != "$3" || $2 != "$4" ]]; then
		printf '%s differ:\n  --help:     %s\n  man page:   %s\n  completion: %s\n' \
			"$1" "$2" "$3" "$4"
		bad=1
	fi
}
# Long options in roff or help text.
longopts() { sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z-]*[a-z]' | words; }
# A roff section: from .SH NAME (or .SS "NAME...") to the next of its level.
man_section() {	# man_section SH|SS NAME
	awk -v lvl=".$1" -v name="$2" '
		$1 == ".SH" || ($1 == lvl && on) { if (on) exit }
		$1 == lvl { w = $2; gsub(/^"|\\f[BIRP]|"$/, "", w); if (w == name) on = 1 }
		on' "$man"
}

# Commands.
help_cmds=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit }
	on { print $1 }' | words)
man_cmds=$(awk '$1 == ".SH" { on = ($2 == "COMMANDS") } on && $1 == ".SS" {
	w = $2; gsub(/^"|\\f[BIRP]|"$/, "", w); print w }' "$man" | words)
# shellcheck disable=SC1090
. "$comp"
comp_cmds=$(echo "$_kstatsctl_commands" | words)
same "commands" "$help_cmds" "$man_cmds" "$comp_cmds"

# Global options.
help_global=$("$bin" --help | sed '/^Commands:/q' | grep -E '^ +(-., )?--' | longopts)
man_global=$(man_section SH OPTIONS | longopts)
comp_global=$(echo "$_kstatsctl_global" | words)
same "global options" "$help_global" "$man_global" "$comp_global"

# Each command's options (what is not global).
for c in $help_cmds; do
	h=$("$bin" "$c" --help | sed '/^The global options/,$d' | grep -E '^ +(-., )?--' | longopts)
	m=$(man_section SS "$c" | longopts)
	m=$(comm -23 <(tr ' ' '\n' <<<"$m" | sort) <(tr ' ' '\n' <<<"$man_global" | sort) | words)
	k=$(echo "${_kstatsctl_opts[$c]-MISSING}" | words)
	same "options of '$c'" "$h" "$m" "$k"
done
((bad == 0)) && echo "commands: $help_cmds"
exit $bad
