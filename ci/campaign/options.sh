# options.sh: rcutorture-campaign's command line (sourced by it).  Sets
# the opt_* variables, WORDS (the scenario words) and PASS_ARGS (the
# arguments after --, files among them made absolute).

opt_bin=$default_bin opt_host_cpus= opt_duration= opt_results= opt_jobs= opt_hosts= opt_dryrun=0 opt_batches=0
opt_seeds=1 opt_seed= opt_rerun= opt_repeat=1 opt_ssh='ssh -o BatchMode=yes -o ConnectTimeout=20'
WORDS=() PASS_ARGS=()

# A positive integer option's value, or a usage error naming the option.
positive() { # option value
	[[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || usage_error "$1: '$2' is not valid; expected a positive integer"
	echo $((10#$2))
}

# An argument made absolute if it names a file here (or is --opt=FILE),
# so that it still does from a run's folder or a re-run elsewhere.
absolute_if_file() { # arg
	local a=$1
	if [[ -f $a && $a != /* ]]; then
		echo "$PWD/$a"
	elif [[ $a == --*=* && -f ${a#*=} && ${a#*=} != /* ]]; then
		echo "${a%%=*}=$PWD/${a#*=}"
	else
		echo "$a"
	fi
}

options_parse() {
	local opt val more
	while (($#)); do
		case $1 in
		-h | --help)
			sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
			exit 0
			;;
		--dryrun | --dry-run) opt_dryrun=1 && shift && continue ;;
		--batches) opt_batches=1 && shift && continue ;;
		--) shift && break ;;
		--*=*) opt=${1%%=*} val=${1#*=} && shift ;;
		--duration | --results | --jobs | -j | --bin | --hosts | --seeds | --seed | --rerun | --repeat | --ssh | --host-cpus)
			(($# >= 2)) || usage_error "$1 needs a value; see --help"
			opt=$1 val=$2
			shift 2
			;;
		-*) usage_error "unknown option '$1'; see --help" ;;
		*)
			read -ra more <<<"$1"
			WORDS+=("${more[@]}")
			shift
			continue
			;;
		esac
		options_set "$opt" "$val"
	done
	for val in "$@"; do
		PASS_ARGS+=("$(absolute_if_file "$val")")
	done
	options_check
}

# One option with a value.
options_set() { # option value
	local opt=$1 val=$2
	case $opt in
	--duration) opt_duration=$val ;;
	--results) opt_results=$val ;;
	--bin) opt_bin=$val ;;
	--hosts) opt_hosts=$val ;;
	--ssh) opt_ssh=$val ;;
	--rerun) opt_rerun=$val ;;
	--jobs | -j) opt_jobs=$(positive "$opt" "$val") || exit 2 ;;
	--seeds) opt_seeds=$(positive "$opt" "$val") || exit 2 ;;
	--repeat) opt_repeat=$(positive "$opt" "$val") || exit 2 ;;
	--host-cpus) opt_host_cpus=$(positive "$opt" "$val") || exit 2 ;;
	--seed)
		[[ $val =~ ^[0-9]{1,18}$ ]] || usage_error "--seed: '$val' is not valid; expected a decimal number below 10^18"
		opt_seed=$((10#$val))
		;;
	*) usage_error "unknown option '$opt'; see --help" ;;
	esac
}

# The options together: what is given must make a campaign.
options_check() {
	if [[ -n $opt_rerun ]]; then
		((${#WORDS[@]} == 0 && ${#PASS_ARGS[@]} == 0)) ||
			usage_error "--rerun: runs again with the recorded arguments; give no scenarios or arguments"
		[[ -z $opt_duration && -z $opt_seed && $opt_seeds == 1 ]] ||
			usage_error "--rerun: --duration, --seed and --seeds come from the recorded runs"
	else
		((${#WORDS[@]})) || usage_error "no scenarios given; expected a list such as \"2*MEMB01 QSBR-ONOFF BUSTED\""
		((opt_repeat == 1)) || usage_error "--repeat: only with --rerun"
	fi
	[[ -x $opt_bin && -f $opt_bin ]] || usage_error "--bin: '$opt_bin' is not an executable file"
	if [[ -n $opt_hosts ]]; then
		command -v parallel >/dev/null || usage_error "--hosts: GNU parallel is not installed (apt-get install parallel)"
		((!opt_batches)) || usage_error "--batches: not with --hosts (parallel fills each host's job slots)"
	fi
	if [[ -z $opt_seed ]]; then
		opt_seed=$(($(od -An -N6 -tu8 /dev/urandom)))
	fi
	local w
	for w in "${!WORDS[@]}"; do
		[[ ${WORDS[w]} == */* && -f ${WORDS[w]#*\*} && ${WORDS[w]#*\*} != /* ]] || continue
		if [[ ${WORDS[w]} =~ ^([0-9]+\*)(.+)$ ]]; then
			WORDS[w]=${BASH_REMATCH[1]}$PWD/${BASH_REMATCH[2]}
		else
			WORDS[w]=$PWD/${WORDS[w]}
		fi
	done
}
