// SPDX-License-Identifier: GPL-2.0
/*
 * A function of each return type, for trace --by errno's check of the
 * return type (cli/btf.c): compiled with -g and turned into a detached
 * BTF file by pahole (the kernel's own BTF encoder), which the host tests
 * hand kstatsctl as KSTATS_BTF. Nothing calls these.
 */
typedef _Bool fx_flag_t;
enum fx_small { FX_A, FX_B };

_Bool fx_bool(void) { return 1; }
char fx_char(void) { return 1; }
unsigned short fx_short(void) { return 1; }
fx_flag_t fx_typedef_bool(void) { return 1; }
void fx_void(void) { }
int fx_int(void) { return -11; }
long fx_long(void) { return -11; }
void *fx_ptr(void) { return 0; }
enum fx_small fx_enum(void) { return FX_B; }
const long fx_const_long(void) { return -4; }
