# bash completion for kstatsctl(8): commands, options, option values (also
# as --opt=value), and metric names: those of a snapshot file given with
# -i/--input, else the live ones (from 'kstatsctl list', never loading the
# module).
# Install as /usr/share/bash-completion/completions/kstatsctl.

_kstatsctl_commands="list show summary create delete record start stop reset trace untrace snapshot diff export plot info help"
_kstatsctl_global="--json --pretty --device --no-autoload --units --color --percentiles --help --version"
declare -gA _kstatsctl_opts=(
	[list]="--input"
	[show]="--all --input --cpu --per-cpu --format --watch --count --all-slots --bits"
	[summary]="--input --interval --format"
	[create]="--bits --autoremove"
	[delete]=""
	[record]=""
	[start]="--all"
	[stop]="--all"
	[reset]="--all"
	[trace]="--bits --start --end --pid --tid --cpu --mechanism --name --maxactive --autoremove"
	[untrace]=""
	[snapshot]="--output --all"
	[diff]="--metric --cumulative --fail-if"
	[export]="--input --output --interval --count --bucket-bits --per-cpu --ns"
	[plot]="--output --title --width --height --share"
	[info]=""
	[help]=""
)

_kstatsctl_metrics()	# $1: the kstatsctl being completed, $2: a snapshot file or ""
{
	if [[ -n $2 ]]; then
		"$1" list -i "$2" 2>/dev/null
	else
		"$1" --no-autoload list 2>/dev/null
	fi | awk 'NR > 1 && NF >= 6 { print $1 }'
}

_kstatsctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} cmd="" input="" i w
	COMPREPLY=()

	# --opt=value: bash splits it at "=" (COMP_WORDBREAKS).
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	# The command: the first word that is neither an option nor its value;
	# and a snapshot file given with -i, whose names are then completed.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ ${COMP_WORDS[i + 1]-} == = ]]; then
			[[ $w == --input ]] && input=${COMP_WORDS[i + 2]-}
			((i += 2))
			continue
		fi
		case $w in
		-i | --input) input=${COMP_WORDS[i + 1]-}; ((i++)) ;;
		-d | --device | --units | --color | --percentiles | -f | --format | \
		-o | --output | -m | --metric | -b | --bits | --mechanism | --cpu | \
		-w | --watch | --count | --interval | --ns | --bucket-bits | --fail-if | \
		--pid | --tid | --name | --maxactive | --start | --end | \
		--title | --width | --height) ((i++)) ;;
		-*) ;;
		*) [[ -z $cmd ]] && cmd=$w ;;
		esac
	done
	input=${input/#\~/$HOME}

	case $prev in
	--units)
		COMPREPLY=($(compgen -W "auto ns us ms s" -- "$cur")); return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
	-f | --format)
		if [[ $cmd == summary ]]; then
			COMPREPLY=($(compgen -W "table csv json" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "hist percentiles cdf raw json csv prometheus" -- "$cur"))
		fi
		return ;;
	-d | --device | -i | --input | -o | --output)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--mechanism)
		COMPREPLY=($(compgen -W "auto fprobe kretprobe kprobe tracepoint" -- "$cur"))
		return ;;
	--bucket-bits)
		COMPREPLY=($(compgen -W "0 1 2 3 4 5" -- "$cur")); return ;;
	-b | --bits)
		COMPREPLY=($(compgen -W "0 1 2 3 4 5" -- "$cur")); return ;;
	-m | --metric)
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "$input")" -- "$cur")); return ;;
	--fail-if | --percentiles | --cpu | --watch | --count | --interval | --ns | --pid | --tid | --name | --maxactive | --start | --end)
		return ;;
	--title | --width | --height)
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_kstatsctl_global" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_kstatsctl_commands" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${_kstatsctl_opts[$cmd]} $_kstatsctl_global" -- "$cur"))
		return
	fi
	case $cmd in
	show | summary | delete | record | start | stop | reset | snapshot | untrace | export)
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "$input")" -- "$cur")) ;;
	diff)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	help)
		COMPREPLY=($(compgen -W "$_kstatsctl_commands" -- "$cur")) ;;
	plot)	# plot KIND FILE [NAME]: the kinds, then files, then FILE's metrics
		local ops=() skip=0
		for ((i = 1; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			((skip)) && { skip=0; continue; }
			case $w in
			-o | --output | --title | --width | --height | -d | --device | --units | \
			--color | --percentiles) skip=1 ;;
			-* | =) ;;
			*) ops+=("$w") ;;
			esac
		done
		if ((${#ops[@]} <= 1)); then
			COMPREPLY=($(compgen -W "hist cdf heatmap" -- "$cur"))
		elif ((${#ops[@]} == 2)) || [[ ${ops[1]} == cdf && ${#ops[@]} == 3 ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
			[[ ${#ops[@]} == 3 ]] &&
				COMPREPLY+=($(compgen -W "$(_kstatsctl_metrics "$prog" "${ops[2]/#\~/$HOME}")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "${ops[2]/#\~/$HOME}")" -- "$cur"))
		fi ;;
	trace)
		local f=/sys/kernel/tracing/available_filter_functions
		[[ -r $f && -n $cur ]] &&
			COMPREPLY=($(grep -m 200 "^$cur" "$f" 2>/dev/null | cut -d' ' -f1)) ;;
	esac
}

complete -F _kstatsctl kstatsctl
