# Shared by the CUDA 11.8 oracles (sourced, not run): where ptxas, nvdisasm
# and cuobjdump 11.8 are. Needs $here (the tests/oracle directory).

# find_cuda118_bin: prints the directory holding all three, or fails.
# $PTXSURF_ORACLE_DIR/bin, then the fetch script, then /opt, then PATH.
find_cuda118_bin() {
	_dir=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}
	for d in "$_dir/bin" "$(sh "$here/fetch-nvidia-tools.sh" 2>/dev/null)" /opt/nvidia-oracles/bin; do
		if [ -n "$d" ] && [ -x "$d/ptxas" ] && [ -x "$d/nvdisasm" ] && [ -x "$d/cuobjdump" ]; then
			echo "$d"
			return 0
		fi
	done
	p=$(command -v ptxas 2>/dev/null) || return 1
	d=$(dirname "$p")
	[ -x "$d/nvdisasm" ] && [ -x "$d/cuobjdump" ] && echo "$d"
}

# cuda118_setup NAME WHAT: sets bin (kept when already set, as in a worker
# of the caller) or prints a loud SKIP line naming WHAT was not compared
# and exits 77; exits 2 when $prog is not built.
cuda118_setup() {
	[ -n "${bin:-}" ] || bin=$(find_cuda118_bin)
	if [ -z "$bin" ]; then
		echo "SKIP: $1: ptxas/nvdisasm/cuobjdump 11.8 not found (\$PTXSURF_ORACLE_DIR/bin," \
		     "fetch-nvidia-tools.sh, /opt/nvidia-oracles/bin, PATH): $2"
		exit 77
	fi
	if [ ! -x "$prog" ]; then
		echo "$1: $prog is not built" >&2
		exit 2
	fi
}

# Instruction lines of a listing as "KERNEL<TAB>ADDR<TAB>TEXT<TAB>HEX", from
# our listing ("Function : k" headers) or nvdisasm of a cubin (".text.k:").
# A line without its hex (a dual-issue pair) takes it from the next line.
sass_lines() {
	awk '
	/Function : / { k = $NF; next }
	/^\.text\./ { k = $1; sub(/^\.text\./, "", k); sub(/:$/, "", k); next }
	{
		if (match($0, /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\//)) {
			addr = substr($0, RSTART + 2, 4)
			rest = substr($0, RSTART + RLENGTH)
			hex = ""
			if (match(rest, /\/\* 0x[0-9a-f]+ \*\//)) {
				hex = substr(rest, RSTART + 5, 16)
				rest = substr(rest, 1, RSTART - 1)
			}
			gsub(/[{}]/, "", rest); gsub(/;/, "", rest)
			gsub(/^[ \t]+|[ \t]+$/, "", rest); gsub(/[ \t]+/, " ", rest)
			if (hex == "") { pend = k "\t" addr "\t" rest; next }
			print k "\t" addr "\t" rest "\t" hex
		} else if (pend != "" && match($0, /\/\* 0x[0-9a-f]+ \*\//)) {
			print pend "\t" substr($0, RSTART + 5, 16); pend = ""
		}
	}' "$1"
}

# Keeps the compared lines as "KERNEL<TAB>FAMILY<TAB>MASKEDHEX<TAB>TEXT".
sass_masked() {
	awk -F '\t' '
	function hv(c) { return index("0123456789abcdef", c) - 1 }
	function hc(v) { return substr("0123456789abcdef", v + 1, 1) }
	# clears bits 46:39 (hex digits 5-7 of 16, keeping bits 47 and 38:36)
	function clear_39(h) {
		d9 = hv(substr(h, 7, 1)) % 8; d11 = hv(substr(h, 5, 1)) >= 8 ? 8 : 0
		return substr(h, 1, 4) hc(d11) "0" hc(d9) substr(h, 8)
	}
	BEGIN {
		n = split("SULD SUST SURED TXQ STG LDG LDS STS LDL STL LD ST PSETP FADD FADD32I FMUL FMUL32I FFMA FMNMX FSETP I2F F2I IMNMX " \
		          "POPC FLO PRMT BFE BFI DADD DMUL DFMA DMNMX DSETP F2F BAR MEMBAR MUFU RRO " \
		          "SHF IADD3 LDC ATOM ATOMS RED SHFL VOTE CS2R B2R ISET DSET FCMP VABSDIFF VABSDIFF4 " \
		          "VADD VMNMX VSET VSHL VSHR VMAD CCTL CCTLL TEX TLD TLD4 TEXS TLDS TLD4S TXD", f, " ")
		for (i = 1; i <= n; i++) want[f[i]] = 1
	}
	{
		t = $3; sub(/^@!?P[0-9T] /, "", t)
		split(t, w, /[ .]/); fam = w[1]
		if (!(fam in want)) next
		h = $4
		if (fam == "PSETP") {
			# destinations (bits 5:0) and guard (19:16) masked; a source
			# register (Pa 14:12, Pb 31:29) only when it is not PT, so
			# PT / !PT (mov.pred immediates) and every negation stay
			n13 = hv(substr(h, 13, 1)); if (n13 % 8 != 7) n13 -= n13 % 8
			n9 = hv(substr(h, 9, 1)); if (int(n9 / 2) != 7) n9 %= 2
			n15 = hv(substr(h, 15, 1)); n15 -= n15 % 4
			h = substr(h, 1, 8) hc(n9) substr(h, 10, 2) "0" hc(n13) substr(h, 14, 1) hc(n15) "0"
			print $1 "\t" fam "\t" h "\t" $3
			next
		}
		keep = fam == "FSETP" ? hc(int(hv(substr(h, 15, 1)) / 4) * 4) : "0"
		last = fam ~ /^CCTLL?$/ ? substr(h, 16, 1) : "0"  # texcache: the CCTL operation (3:0)
		h = substr(h, 1, 11) "000" keep last             # Rd/Rb, Ra, guard, Pd/Pq
		if (fam ~ /^SU/ && int(hv(substr(h, 4, 1)) / 8) == 0)
			h = clear_39(h)                               # index register Rc
		op = substr(h, 1, 2)
		if (fam !~ /^(SU|TXQ|STG|LDG)/ && (op == "5c" || op == "5b" || op == "59"))
			h = substr(h, 1, 9) "00" substr(h, 12)       # register B
		if (fam ~ /^VABSDIFF/)                            # video: registers B and C
			h = clear_39(substr(h, 1, 9) "00" substr(h, 12))
		if (fam ~ /^V(ADD|MNMX|SET|SHL|SHR|MAD)$/) {      # video2: C, and B when bit 50 says register
			if (int(hv(substr(h, 4, 1)) / 4) % 2 == 1)
				h = substr(h, 1, 9) "00" substr(h, 12)
			h = clear_39(h)
		}
		if (fam == "FFMA" || fam == "DFMA" || fam == "BFI" || fam == "PRMT" || fam == "SHF" ||
		    fam == "IADD3" || fam == "FCMP")
			h = clear_39(h)                               # C (B of the RC form)
		# issue 17 part 1: register B (27:20) of ATOM/ATOMS and of SHFL
		# without an immediate lane (bit 28), the SHFL mask register (46:39,
		# bit 29 clear), the SHFL Pd and VOTE predicates (47:45, 41:39) unless PT
		d9 = hv(substr(h, 9, 1))
		# bar-reg-count: the count register B (27:20) of BAR when bit 43 is clear
		if (fam == "ATOM" || fam == "ATOMS" || (fam == "SHFL" && d9 % 2 == 0) ||
		    (fam == "BAR" && int(hv(substr(h, 6, 1)) / 8) % 2 == 0))
			h = substr(h, 1, 9) "00" substr(h, 12)
		if (fam == "SHFL" && int(d9 / 2) % 2 == 0)
			h = clear_39(h)
		if (fam == "SHFL" && hv(substr(h, 4, 1)) % 8 != 7)     # Pd 50:48
			h = substr(h, 1, 3) hc(hv(substr(h, 4, 1)) - hv(substr(h, 4, 1)) % 8) substr(h, 5)
		# ctrl: BAR.RED Pc (41:39) and B2R Pd (47:45) masked as for VOTE (BAR.SYNC has PT)
		if (fam == "VOTE" || fam == "BAR" || fam == "B2R") {
			d4 = hv(substr(h, 5, 1)); if (int(d4 / 2) != 7) d4 %= 2
			d6 = hv(substr(h, 6, 1)); d7 = hv(substr(h, 7, 1))
			pc = (d6 % 4) * 2 + int(d7 / 8); if (pc != 7) { d6 -= d6 % 4; d7 %= 8 }
			h = substr(h, 1, 4) hc(d4) hc(d6) hc(d7) substr(h, 8)
		}
		# texs: register B (27:20) of the textures and the compact forms
		# second destination pair (35:28), each kept when RZ (no operand;
		# for the compact forms RZ in Rd2 changes what the mask code means)
		if (fam ~ /^(TEX|TLD|TXD)/) {
			if (substr(h, 10, 2) != "ff")
				h = substr(h, 1, 9) "00" substr(h, 12)
			if (fam ~ /S$/ && substr(h, 8, 2) != "ff")
				h = substr(h, 1, 7) "00" substr(h, 10)
		}
		if (fam == "LD" || fam == "ST") {                 # address predicate 60:58
			d1 = hv(substr(h, 1, 1)); d2 = hv(substr(h, 2, 1))
			h = hc(d1 - d1 % 2) hc(d2 % 4) substr(h, 3)
		}
		print $1 "\t" fam "\t" h "\t" $3
	}' "$1"
}
