#!/bin/sh
# Regenerate tests/corpus/*.ptx from the sources in tests/corpus-src/.
#
# This is documentation and a tool, not part of `make check` (it needs nvcc,
# ptxas and LLVM).  Every command that produced a corpus file is below.
# A generated file is kept only if it is at most $MAXSIZE bytes and NVIDIA
# ptxas accepts it:
#     ptxas -arch=<its .target, or sm_75 for older targets> [-c] FILE -o /dev/null
# (-c when the file declares .extern symbols, i.e. needs linking.)
#
# Usage: sh tests/corpus-src/regen.sh        (from anywhere)
# Overridable: NVCC PTXAS LLC14 LLC16 LLC22 LLVMAS16 CLANG14 CLANG22 MAXSIZE
# Tools used: CUDA 13.0 nvcc/ptxas; Debian LLVM 14.0.6, 16.0.6, 22.1.8
# (apt-get install llvm-14 llvm-16 llvm-22 clang-14 clang-22).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/.." && pwd)/corpus
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
LLC14=${LLC14:-llc-14}
LLC16=${LLC16:-llc-16}
LLC22=${LLC22:-llc-22}
LLVMAS16=${LLVMAS16:-llvm-as-16}
CLANG14=${CLANG14:-clang-14}
CLANG22=${CLANG22:-clang-22}
MAXSIZE=${MAXSIZE:-40960}
mkdir -p "$OUT"
kept=0
dropped=0

# keep FILE: size limit + ptxas acceptance; otherwise delete it.
# (sh has no local variables: the k_ prefix keeps callers' loop variables intact)
keep() {
    k_f=$1
    [ -f "$k_f" ] || { dropped=$((dropped + 1)); return; }
    k_size=$(wc -c < "$k_f")
    if [ "$k_size" -gt "$MAXSIZE" ]; then
        echo "drop (size $k_size): $(basename "$k_f")"; rm -f "$k_f"; dropped=$((dropped + 1)); return
    fi
    target=$(sed -n 's/^\.target[ 	]*\(sm_[0-9a-z]*\).*/\1/p' "$k_f" | head -n 1)
    case $target in
        sm_2?|sm_3?|sm_5?|sm_6?|sm_70|sm_72|"") arch=sm_75 ;;
        *) arch=$target ;;
    esac
    cflag=
    grep -q '^[ 	]*\.extern' "$k_f" && cflag=-c
    if "$PTXAS" -arch="$arch" $cflag "$k_f" -o /dev/null >/dev/null 2>&1; then
        kept=$((kept + 1))
    else
        echo "drop (ptxas -arch=$arch $cflag): $(basename "$k_f")"; rm -f "$k_f"; dropped=$((dropped + 1))
    fi
}

# nv ARCH TAG "FLAGS" SRC   ->  nvcc-ARCH-TAG-SRC.ptx
# TAG names the flags: O3 = nvcc default (-O3 device optimisation), G = -G,
# lineinfo = -lineinfo, rdc = -rdc=true, fastmath = -use_fast_math, ...
nv() {
    o="$OUT/nvcc-$1-$2-${4%.cu}.ptx"
    (cd "$HERE/cuda" && "$NVCC" -ptx -arch="$1" $3 "$4" -o "$o") || rm -f "$o"
    keep "$o"
}

# ll VERSION CPU TAG "FLAGS" SRC  ->  llcVERSION-CPU-TAG-SRC.ptx
# (the target triple, nvptx64-nvidia-cuda or -nvcl, comes from the .ll file)
ll() {
    o="$OUT/llc$1-$2-$3-${5%.ll}.ptx"
    case $1 in
        14) (cd "$HERE/llvm" && $LLC14 -mcpu="$2" $4 "$5" -o "$o") ;;
        16) (cd "$HERE/llvm" && $LLC16 -mcpu="$2" $4 "$5" -o "$o") ;;
        22) if grep -q ' ptr' "$HERE/llvm/$5"; then
                (cd "$HERE/llvm" && $LLC22 -mcpu="$2" $4 "$5" -o "$o")
            else
                (cd "$HERE/llvm" && $LLVMAS16 "$5" -o - | $LLC22 -mcpu="$2" $4 -o "$o")
            fi ;;
    esac || rm -f "$o"
    keep "$o"
}

# cl VERSION GPU TAG "FLAGS" SRC  ->  clangVERSION-GPU-TAG-SRC.ptx  (CUDA device-only)
cl() {
    if [ "$1" = 14 ]; then c=$CLANG14; else c=$CLANG22; fi
    o="$OUT/clang$1-$2-$3-${5%.cu}.ptx"
    (cd "$HERE/llvm" && $c -x cuda --cuda-gpu-arch="$2" --cuda-device-only -nocudainc -nocudalib -S $4 "$5" -o "$o") || rm -f "$o"
    keep "$o"
}

############################################################################
# nvcc (CUDA 13)
############################################################################
SURF="surf1d_rw.cu surf2d_copy.cu surf3d.cu surf_layered.cu surf_boundary.cu
      asm_sured.cu asm_suq.cu asm_sust.cu asm_suld.cu surf_box_filter.cu
      surf_histogram.cu surf_device_fn.cu surf_templates.cu"
# -G output of these is larger than MAXSIZE; they get -rdc=true -lineinfo instead.
BIGG="surf1d_rw.cu surf2d_copy.cu surf3d.cu surf_layered.cu surf_boundary.cu
      surf_templates.cu tex_objects.cu atomics.cu warp_ops.cu half_bf16.cu
      coop_groups.cu store_types.cu math_intrinsics.cu"
nv86() {
    case " $(echo $BIGG) " in
        *" $1 "*) nv compute_86 rdc-lineinfo "-rdc=true -lineinfo" "$1" ;;
        *)        nv compute_86 G            "-G"                  "$1" ;;
    esac
}
for s in $SURF; do
    nv compute_75  O3       ""          "$s"
    nv compute_80  lineinfo "-lineinfo" "$s"
    nv86 "$s"
    nv compute_89  O3       ""          "$s"
    nv compute_90  lineinfo "-lineinfo" "$s"
    nv compute_100 O3       ""          "$s"
    nv compute_120 rdc      "-rdc=true" "$s"
done

GEN="tex_objects.cu atomics.cu shared_reduce.cu device_calls.cu printf_kernel.cu
     warp_ops.cu half_bf16.cu coop_groups.cu globals_init.cu launch_bounds.cu
     store_types.cu local_depot.cu trap_assert.cu math_intrinsics.cu
     switch_loops.cu inline_asm_misc.cu"
for s in $GEN; do
    nv compute_75  O3       ""                    "$s"
    nv compute_80  lineinfo "-lineinfo"           "$s"
    nv86 "$s"
    nv compute_89  rdc      "-rdc=true"           "$s"
    nv compute_90  O3       ""                    "$s"
    if [ "$s" = coop_groups.cu ]; then    # -lineinfo output is > MAXSIZE
        nv compute_120 O3       ""                "$s"
    else
        nv compute_120 lineinfo "-lineinfo"       "$s"
    fi
done

for s in extern_calls.cu dyn_parallel.cu; do
    nv compute_75  rdc          "-rdc=true"           "$s"
    nv compute_80  rdc-lineinfo "-rdc=true -lineinfo" "$s"
    nv compute_90  rdc-G        "-rdc=true -G"        "$s"
    nv compute_100 rdc          "-rdc=true"           "$s"
done

nv compute_80  O3       ""          async_mma_sm80.cu
nv compute_86  lineinfo "-lineinfo" async_mma_sm80.cu
nv compute_89  rdc      "-rdc=true" async_mma_sm80.cu
nv compute_90  O3       ""          async_mma_sm80.cu
nv compute_100 rdc      "-rdc=true" async_mma_sm80.cu
nv compute_120 O3       ""          async_mma_sm80.cu

nv compute_90  O3       ""          cluster_sm90.cu
nv compute_90  lineinfo "-lineinfo" cluster_sm90.cu
nv compute_90  rdc-lineinfo "-rdc=true -lineinfo" cluster_sm90.cu
nv compute_90a O3       ""          cluster_sm90.cu
nv compute_100 rdc      "-rdc=true" cluster_sm90.cu
nv compute_120 O3       ""          cluster_sm90.cu

nv compute_90a O3       ""          sm90a_features.cu
nv compute_90a lineinfo "-lineinfo" sm90a_features.cu
nv compute_90  O3       ""          sm90a_features.cu
nv compute_100 O3       ""          sm90a_features.cu

# the remaining virtual architectures, a few options
nv compute_87  O3       ""                 surf2d_copy.cu
nv compute_88  O3       ""                 asm_sust.cu
nv compute_103 O3       ""                 surf3d.cu
nv compute_110 lineinfo "-lineinfo"        asm_suld.cu
nv compute_121 O3       ""                 warp_ops.cu
nv compute_75  fastmath "-use_fast_math"   math_intrinsics.cu
nv compute_80  fastmath "-use_fast_math"   half_bf16.cu
nv compute_75  G        "-G"               asm_sured.cu
nv compute_75  G        "-G"               asm_suq.cu
nv compute_75  rdc-G    "-rdc=true -G"     device_calls.cu
nv compute_75  lineinfo "-lineinfo"        surf_templates.cu

# small single-kernel sources meant for -G (device debug info, .debug_* sections)
for s in dbg_surf2d.cu dbg_surf3d_layered.cu dbg_sured.cu; do
    nv compute_75  G        "-G"               "$s"
    nv compute_89  G        "-G"               "$s"
    nv compute_90  G        "-G"               "$s"
    nv compute_100 G        "-G"               "$s"
    nv compute_120 rdc-G    "-rdc=true -G"     "$s"
done

############################################################################
# LLVM
############################################################################
# llc: the .ll files use typed pointers (LLVM 14 syntax).  llc-14 and llc-16 read
# them directly; for llc-22 they are first upgraded by llvm-as-16 (see ll()).
# modern_attrs.ll and llc22_features.ll use opaque pointers / LLVM 20+ features:
# llc-22 only.
# Tags: O0/O2 = llc -O level, ptxNN = -mattr=+ptxNN, m32 = 32-bit (-march=nvptx / -m32).

# surfaces / textures
for f in surface_intrinsics.ll texsurf_refs.ll; do
    ll 14 sm_35 O2-ptx60  "-O2 -mattr=+ptx60" "$f"
    ll 14 sm_50 O0-ptx60  "-O0 -mattr=+ptx60" "$f"
    ll 14 sm_60 O2        "-O2"               "$f"
    ll 14 sm_75 O0        "-O0"               "$f"
    ll 16 sm_86 O2        "-O2"               "$f"
    ll 16 sm_90 O2        "-O2"               "$f"
    ll 22 sm_100 O2       "-O2"               "$f"
    ll 22 sm_120 O0-ptx87 "-O0 -mattr=+ptx87" "$f"
done
ll 14 sm_35 O2        "-O2"               nvcl_sampler.ll
ll 14 sm_70 O0-ptx64  "-O0 -mattr=+ptx64" nvcl_sampler.ll
ll 16 sm_80 O2        "-O2"               nvcl_sampler.ll
ll 22 sm_89 O2        "-O2"               nvcl_sampler.ll

# everything else
ll 14 sm_35 O2        "-O2"               calls_indirect.ll
ll 14 sm_70 O0        "-O0"               calls_indirect.ll
ll 16 sm_80 O2        "-O2"               calls_indirect.ll
ll 22 sm_90 O2        "-O2"               calls_indirect.ll
ll 16 sm_60 O2        "-O2"               globals_linkage.ll
ll 16 sm_75 O0        "-O0"               globals_linkage.ll
ll 22 sm_86 O2        "-O2"               globals_linkage.ll
ll 22 sm_120 O2       "-O2"               globals_linkage.ll
ll 14 sm_35 O2        "-O2"               kernel_attrs.ll
ll 14 sm_75 O2-ptx70  "-O2 -mattr=+ptx70" kernel_attrs.ll
ll 16 sm_89 O0        "-O0"               kernel_attrs.ll
ll 22 sm_100 O2       "-O2"               kernel_attrs.ll
ll 14 sm_60 O2        "-O2"               atomics_fences.ll
ll 14 sm_70 O0        "-O0"               atomics_fences.ll
ll 16 sm_90 O2        "-O2"               atomics_fences.ll
ll 22 sm_90 O2        "-O2"               atomics_fences.ll
ll 14 sm_50 O2        "-O2"               vector_mem.ll
ll 14 sm_80 O0        "-O0"               vector_mem.ll
ll 22 sm_89 O2        "-O2"               vector_mem.ll
ll 14 sm_70 O2        "-O2"               warp_sync.ll
ll 14 sm_86 O0        "-O0"               warp_sync.ll
ll 22 sm_120 O2       "-O2"               warp_sync.ll
ll 14 sm_50 O0        "-O0"               local_alloca.ll
ll 16 sm_75 O2        "-O2"               local_alloca.ll
ll 22 sm_80 O0        "-O0"               local_alloca.ll
ll 14 sm_60 O2        "-O2"               fp_math.ll
ll 16 sm_80 O0        "-O0"               fp_math.ll
ll 22 sm_100 O2       "-O2"               fp_math.ll
ll 14 sm_70 O2        "-O2"               switch_jumptable.ll
ll 22 sm_80 O2        "-O2"               switch_jumptable.ll
ll 22 sm_90 O0        "-O0"               switch_jumptable.ll
ll 22 sm_120 O2       "-O2"               switch_jumptable.ll
ll 22 sm_90 O2-ptx90  "-O2 -mattr=+ptx90" modern_attrs.ll
ll 22 sm_100 O0-ptx90 "-O0 -mattr=+ptx90" modern_attrs.ll
ll 22 sm_120 O2-ptx90 "-O2 -mattr=+ptx90" modern_attrs.ll
ll 22 sm_80 O2        "-O2"               llc22_features.ll
ll 22 sm_90 O0        "-O0"               llc22_features.ll
ll 22 sm_120 O2       "-O2"               llc22_features.ll
# 32-bit code (issue 15): -march=nvptx (.address_size 32), tag m32, in
# ../corpus32 (ptxas 13 refuses 32-bit code: see its README.md).
OUT64=$OUT
OUT=$(cd "$HERE/.." && pwd)/corpus32
for f in local_alloca.ll vector_mem.ll calls_indirect.ll; do
    ll 14 sm_50 O2-m32    "-O2 -march=nvptx"  "$f"
done
OUT=$OUT64

# clang: CUDA device-only compiles without CUDA headers/libdevice
CF="-Wno-unknown-cuda-version"
for f in clang_surface_asm.cu clang_kernels.cu; do
    cl 14 sm_50 O0-g          "-O0 -g $CF"                "$f"
    cl 14 sm_70 O2-g          "-O2 -g $CF"                "$f"
    cl 14 sm_75 O2-lineonly   "-O2 -gline-tables-only $CF" "$f"
    cl 22 sm_80 O1-g          "-O1 -g $CF"                "$f"
    cl 22 sm_90 O2-g          "-O2 -g $CF"                "$f"
    cl 22 sm_120 O3           "-O3 $CF"                   "$f"
done
OUT=$(cd "$HERE/.." && pwd)/corpus32
cl 14 sm_50 O2-m32 "-O2 -m32 $CF" clang_kernels.cu     # 32-bit (.address_size 32)
OUT=$OUT64

echo "kept $kept, dropped $dropped"
