# bench/samples.sh - the programs whose predictions `make bench` checks
# (tools/bench) and the lent-machine bench checks at P = 1..16
# (tools/bench-device): sourced by both, so that they measure the same
# programs the same way.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
# shellcheck shell=bash disable=SC2034

# name | source | flags | the reduced run (at P = 2; with it, a run at half
# its first argument, or the first run given after a ';'; with
# PERFPRED_BENCH_EXTRA=1 two smaller ones: the first argument at 1/2 and
# 3/4, or the runs given after a ';', separated by ';') | template for
# validate | points (16x the reduced size, at least 1 s of run time).  matmul_blocks
# computes its thread grid PR x PC from P with a loop the model cannot
# follow: its points give the grid.
SAMPLES=(
  "ge_pthreads|samples/ge_pthreads.c|-pthread|96 2|{N} {P}|N=1536,P=1 N=1536,P=2"
  "ge_omp|samples/ge_omp.c|-fopenmp|96 2|{N} {P}|N=1536,P=1 N=1536,P=2"
  "apsp|samples/apsp.c|-pthread|64 2|{N} {P}|N=1024,P=1 N=1024,P=2"
  "em|samples/em.c|-pthread|32 32 8 8 2 1000;16 16 8 8 2 1000;24 24 8 8 2 1000|{I} {J} 8 8 {P} 1000|I=512,J=512,P=1 I=512,J=512,P=2"
  "jacobi|samples/jacobi.c|-fopenmp|128 200 2|{N} 200 {P}|N=2048,P=1 N=2048,P=2"
  "matmul_rows|samples/matmul_rows.c|-pthread|64 2|{N} {P}|N=1024,P=1 N=1024,P=2"
  "matmul_blocks|samples/matmul_blocks.c|-pthread|64 2|{N} {P}|N=1024,P=1,PR=1 N=1024,P=2,PR=1"
  "md|samples/md.c|-pthread|1024 150 2|{NPART} 150 {P}|NPART=16384,P=1 NPART=16384,P=2"
  # programs written the way users write them (bench/programs/, docs/bench.md)
  "heat_pthreads|bench/programs/heat_pthreads.c|-pthread|128 100 2|{n} 100 {P}|n=2048,P=1 n=2048,P=2"
  "wave_omp|bench/programs/wave_omp.c|-fopenmp|128 60 2|{n} 60 {P}|n=2048,P=1 n=2048,P=2"
  "ring_mpi|bench/programs/ring_mpi.c|mpi|62500 500|{nx} 500|nx=1000000,P=1 nx=1000000,P=2"
  "syrk_omp|bench/programs/syrk_omp.c|-fopenmp|160 4 100 2|{n} 4 100 {P}|n=2560,P=1 n=2560,P=2"
  "bucket_omp|bench/programs/bucket_omp.c|-fopenmp|500000 2|{n} {P}|n=8000000,P=1 n=8000000,P=2"
  "workq_pthreads|bench/programs/workq_pthreads.c|-pthread|96 600 2;48 600 2|{n} 600 {P}|n=1536,P=1 n=1536,P=2"
)
# samples recorded at two sizes even with PERFPRED_BENCH_SIZES=1: a work
# queue's total is data-dependent, and from one size the model can only
# keep it constant (docs/model.md, "Work queues")
TWO_SIZES=" workq_pthreads "

# The second size of the two-size protocol (perfpred record --sizes
# A/2,A): the sample's first named extra run, else the reduced run with
# its first number halved.  $1: the reduced run, $2: the extra runs
# (';'-separated, may be empty).
second_size() {
    if [ -n "$2" ]; then
        echo "${2%%;*}"
    else
        echo "$((${1%% *} / 2)) ${1#* }"
    fi
}
