# bash completion for kstatsctl(8): commands, options, option values (also
# as --opt=value), and metric names: those of a snapshot file given with
# -i/--input (diff: file A), else the live ones (from 'kstatsctl list',
# never loading the module). Files: directories end in "/" with no space
# after them, so that completing goes on inside.
# Install as /usr/share/bash-completion/completions/kstatsctl.

_kstatsctl_commands="list show summary create delete record start stop reset trace untrace outliers snapshot diff export plot info help"
_kstatsctl_global="--json --pretty --device --no-autoload --units --color --percentiles --ns --hdr-unit --from --to --help --version"
declare -gA _kstatsctl_opts=(
	[list]="--input --format"
	[show]="--all --input --cpu --per-cpu --format --interval --watch --count --all-slots --bits --folded --weight"
	[summary]="--input --interval --count --format"
	[create]="--bits --autoremove"
	[delete]=""
	[record]=""
	[start]="--all"
	[stop]="--all"
	[reset]="--all"
	[trace]="--bits --start --end --pid --tid --cpu --mechanism --name --functions --max --maxactive --split --self --cgroup --by --keys --key-values --keep --budget --sample --duration --interval --count --output --format --outliers --outlier-ring --outlier-rate --value --time --if --dry-run"
	[untrace]="--all"
	[outliers]="--input --format --follow --pid --tid --cpu --comm --min --folded --weight"
	[snapshot]="--output --all"
	[diff]="--input --metric --cumulative --fail-if --brief --slots --undecided"
	[export]="--input --output --interval --count --bucket-bits --per-cpu --format"
	[plot]="--input --output --title --width --height --share --per-slot --palette --cumulative"
	[info]=""
	[help]=""
)

_kstatsctl_metrics()	# $1: the kstatsctl being completed, $2: a snapshot file or ""
{
	# A very wide "screen": a long name never gets a line of its own.
	if [[ -n $2 ]]; then
		COLUMNS=100000 "$1" list -i "$2" 2>/dev/null
	else
		COLUMNS=100000 "$1" --no-autoload list 2>/dev/null
	fi | awk 'NR > 1 && NF >= 6 { print $1 }'
}

_kstatsctl_files()	# $1: the word: files and directories, a directory as "dir/"
{
	local IFS=$'\n' f
	COMPREPLY=()
	for f in $(compgen -f -- "$1"); do
		[[ -d $f ]] && f+=/
		COMPREPLY+=("$f")
	done
	# No space after a directory; quoting as file names need it. (compopt
	# works only inside a completion: not when a test calls this.)
	if [[ ${COMPREPLY[*]} == */* ]]; then
		compopt -o filenames -o nospace 2>/dev/null
	else
		compopt -o filenames 2>/dev/null
	fi
	return 0
}

# diff A [B] [NAME...]: A is a file; after it, a file (B) or A's metric
# names; the value of -m/--metric, A's names (the live ones before A).
# $1: the kstatsctl being completed; $2: "-m" when completing its value.
_kstatsctl_diff()
{
	local i w a="" n=0 on=0
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((!on)); then
			[[ $w == diff ]] && on=1
			continue
		fi
		if [[ ${COMP_WORDS[i + 1]-} == = ]]; then
			((i += 2))
			continue
		fi
		case $w in
		-m | --metric | --fail-if | --undecided | --device | --units | --color | \
		--percentiles) ((i++)) ;;
		-*) ;;
		*) ((n++ == 0)) && a=$w ;;
		esac
	done
	a=${a/#\~/$HOME}
	if [[ $2 == -m ]]; then
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$1" "$a")" -- "$cur"))
	elif ((n == 0)); then
		_kstatsctl_files "$cur"
	elif ((n == 1)); then
		_kstatsctl_files "$cur"
		COMPREPLY+=($(compgen -W "$(_kstatsctl_metrics "$1" "$a")" -- "$cur"))
	else
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$1" "$a")" -- "$cur"))
	fi
}

_kstatsctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} cmd="" input="" i w
	local -a operands=()
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
		--device | --units | --color | --percentiles | -f | --format | --hdr-unit | \
		--from | --to | -d | --duration | -p | -t | -C | -c | \
		-o | --output | -m | --metric | -b | --bits | --mechanism | --cpu | \
		-w | --watch | --count | --interval | --ns | --bucket-bits | --fail-if | --undecided | \
		--pid | --tid | --name | --max | --maxactive | --functions | --start | --end | --budget | --sample | \
		--value | --if | \
		--title | --width | --height | --palette) ((i++)) ;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$w; else operands+=("$w"); fi ;;
		esac
	done
	# diff A B NAME...: the names are those of A.
	[[ $cmd == diff && -z $input && ${#operands[@]} -ge 1 ]] && input=${operands[0]}
	input=${input/#\~/$HOME}

	# trace's -i, -d, -p, -t, -C, -c take a duration, an id, CPUs, a count.
	if [[ $cmd == trace && $prev =~ ^-(i|d|p|t|C|c|w)$ ]]; then
		return
	fi
	case $prev in
	--units)
		COMPREPLY=($(compgen -W "auto ns us ms s" -- "$cur")); return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
	--hdr-unit)
		COMPREPLY=($(compgen -W "ns us ms s" -- "$cur")); return ;;
	--palette)
		COMPREPLY=($(compgen -W "viridis reds" -- "$cur")); return ;;
	--from | --to)
		return ;;	# seconds or a UTC time: nothing to offer
	-f | --format)
		if [[ $cmd == summary ]]; then
			COMPREPLY=($(compgen -W "table csv json" -- "$cur"))
		elif [[ $cmd == list || $cmd == outliers ]]; then
			COMPREPLY=($(compgen -W "table json" -- "$cur"))
		elif [[ $cmd == export ]]; then
			COMPREPLY=($(compgen -W "prometheus hdr" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "hist percentiles cdf raw json csv prometheus" -- "$cur"))
		fi
		return ;;
	--device | -i | --input | -o | --output | --functions)
		_kstatsctl_files "$cur"; return ;;
	--mechanism)
		COMPREPLY=($(compgen -W "auto fprobe kretprobe kprobe tracepoint uprobe" -- "$cur"))
		return ;;
	--by)
		COMPREPLY=($(compgen -W "errno cgroup comm pid tid cpu stack" -- "$cur")); return ;;
	--value)	# a parameter's name needs the function's BTF: offer what is always there
		COMPREPLY=($(compgen -W "retval arg0 arg1 arg2 arg3 arg4 arg5" -- "$cur")); return ;;
	--if)
		return ;;
	--undecided)
		COMPREPLY=($(compgen -W "fail pass" -- "$cur")); return ;;
	--weight)
		COMPREPLY=($(compgen -W "count time" -- "$cur")); return ;;
	--cgroup)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	-b | --bits | --bucket-bits)
		COMPREPLY=($(compgen -W "0 1 2 3 4 5" -- "$cur")); return ;;
	-m | --metric)
		if [[ $cmd == diff ]]; then
			_kstatsctl_diff "$prog" -m
			return
		fi
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "$input")" -- "$cur")); return ;;
	--start | --end)	# a kernel function, or a kind's prefix: tp:EVENT, usdt:BINARY:PROVIDER:NAME
		COMPREPLY=($(compgen -W "tp: usdt:" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return ;;
	--fail-if | --percentiles | --cpu | --watch | --count | --interval | --duration | --ns | --pid | --tid | --name | --max | --maxactive | --sample)
		return ;;
	--budget)
		COMPREPLY=($(compgen -W "0.5% 1% 2% 5% off" -- "$cur")); return ;;
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
	list | show | summary | delete | record | start | stop | reset | snapshot | untrace | outliers | export)
		COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "$input")" -- "$cur")) ;;
	diff)
		_kstatsctl_diff "$prog" "" ;;
	help)
		COMPREPLY=($(compgen -W "$_kstatsctl_commands" -- "$cur")) ;;
	plot)	# plot KIND FILE [NAME]: the kinds, then files, then FILE's metrics
		local ops=() skip=0
		for ((i = 1; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			((skip)) && { skip=0; continue; }
			case $w in
			-o | --output | --title | --width | --height | --device | --units | \
			--color | --percentiles | --palette) skip=1 ;;
			-* | =) ;;
			*) ops+=("$w") ;;
			esac
		done
		if ((${#ops[@]} <= 1)); then
			COMPREPLY=($(compgen -W "hist cdf percentiles heatmap flame" -- "$cur"))
		elif ((${#ops[@]} == 2)) || [[ ${ops[1]} =~ ^(cdf|percentiles)$ && ${#ops[@]} == 3 ]]; then
			_kstatsctl_files "$cur"
			[[ ${#ops[@]} == 3 ]] &&
				COMPREPLY+=($(compgen -W "$(_kstatsctl_metrics "$prog" "${ops[2]/#\~/$HOME}")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_kstatsctl_metrics "$prog" "${ops[2]/#\~/$HOME}")" -- "$cur"))
		fi ;;
	trace)	# a kernel function, or a kind's prefix: tp:EVENT, usdt:BINARY:PROVIDER:NAME
		local f=/sys/kernel/tracing/available_filter_functions
		[[ -r $f && -n $cur ]] &&
			COMPREPLY=($(grep -m 200 "^$cur" "$f" 2>/dev/null | cut -d' ' -f1))
		COMPREPLY+=($(compgen -W "tp: usdt:" -- "$cur")) ;;
	esac
}

complete -F _kstatsctl kstatsctl
