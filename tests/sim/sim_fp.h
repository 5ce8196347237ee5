/* Float helpers shared by the simulator's float families (sim_float.c,
 * sim_double.c, sim_sfu.c): bit casts, rounding-mode arithmetic, the
 * comparisons of FSETP/DSETP and the predicate pair they write. */
#ifndef PTXSURF_TEST_SIM_FP_H
#define PTXSURF_TEST_SIM_FP_H

#include "sim.h"

float sim_f32(uint32_t bits);
uint32_t sim_bits32(float f);
double sim_f64(uint64_t bits);
uint64_t sim_bits64(double d);
/* x flushed to a zero of its sign when `on` and x is an f32 subnormal. */
float sim_ftz(float x, bool on);
/* The host rounding mode of the encoded one (RN RM RP RZ). */
int sim_fe_round(int64_t rnd);
/* FSETP/DSETP comparison cmp (F LT EQ LE GT NE GE NUM NAN LTU ... T) */
bool sim_fcmp(double x, double y, int64_t cmp);
/* PD = r bop PC, PQ = !r bop PC (bop: AND OR XOR) */
void sim_set_fpred(SimThread *t, const SimInsn *in, bool r);
/* An f64 from the register pair {r+1, r} (RZ pair: 0). */
uint64_t sim_reg64(const SimThread *t, int64_t r);
void sim_set64(SimThread *t, int64_t r, uint64_t v);
/* An f16 (bits) to double, exactly; a double to f16 in rounding mode rnd
 * (0 RN, 1 RM, 2 RP, 3 RZ); NaN becomes 0x7fff. */
double sim_half_to_double(uint16_t h);
uint16_t sim_double_to_half(double x, int64_t rnd);
/* A double to f32 in rounding mode rnd. */
float sim_double_to_f32(double x, int64_t rnd);

#endif
