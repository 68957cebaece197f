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

/*
 * trace --value/--if (cli/expr_btf.c): named parameters, pointer chains,
 * an embedded struct, anonymous members, a bitfield, an array, enums of
 * both signs, integers of every width and sign, and what cannot be read:
 * a struct or a double by value, a 7th argument.
 */
typedef unsigned long fx_size_t;
typedef long long fx_loff_t;
enum fx_sign { FX_NEG = -1, FX_POS = 1 };

struct fx_inode {
	unsigned long i_ino;
	fx_loff_t i_size;
	unsigned int i_mode : 12, i_kind : 4;
	unsigned char i_bytes[4];
	short i_delta;
	unsigned short i_nlink;
};

struct fx_dentry {
	unsigned int d_flags;
	struct fx_inode *d_inode;
};

struct fx_path {
	void *mnt;
	struct fx_dentry *dentry;
};

struct fx_file {
	unsigned int f_flags;
	struct fx_path f_path;
	struct fx_inode *f_inode;
	union {
		unsigned long f_u64;
		int f_s32;
	};
	struct {
		signed char f_lo;
		unsigned char f_hi;
	};
	enum fx_small f_kind;
	enum fx_sign f_sign;
	_Bool f_ok;
	double f_ratio;
	struct fx_file *f_next;
};

struct fx_pair { long a, b; };

long fx_write(struct fx_file *file, const char *buf, fx_size_t count, fx_loff_t *pos)
{
	return file && buf && pos ? (long)count : -14;
}

struct fx_file *fx_open(int flags, unsigned short mode) { return flags + mode ? (void *)0 : (void *)0; }
enum fx_sign fx_signum(int x) { return x < 0 ? FX_NEG : FX_POS; }
int fx_seven(int a, long b, short c, unsigned char d, long e, int f, int g)
{
	return a + (int)b + c + d + (int)e + f + g;
}
int fx_byval(struct fx_pair p, int after) { return (int)p.a + after; }
struct fx_pair fx_ret_pair(int x) { struct fx_pair p = { x, x }; return p; }
double fx_ratio(struct fx_file *file) { return file ? file->f_ratio : 0; }

/* A pointer to a struct declared only here, defined nowhere: no members. */
struct fx_opaque;
long fx_opaque_len(struct fx_opaque *o) { return o ? 1 : 0; }

/*
 * Tracepoints (cli/expr_tp.c), as the kernel's BTF has them: the typedef
 * btf_trace_EVENT, a pointer to (void *data, ARGS...), unnamed; the names
 * from __probestub_EVENT (6.5+) or the class's trace_event_raw_event_CLASS;
 * the record, struct trace_event_raw_CLASS, with fields that are no
 * argument (nr_sector). fx_bare has no named function: argN only.
 */
struct fx_request {
	unsigned int __data_len;
	unsigned long long __sector;
	struct fx_file *file;
};

struct trace_event_raw_fx_rq {
	unsigned short ent;
	unsigned long long sector;
	unsigned int nr_sector;
	char __data[0];
};

typedef void (*btf_trace_fx_rq_issue)(void *, struct fx_request *, int);
typedef void (*btf_trace_fx_bare)(void *, unsigned long, long);
typedef void (*btf_trace_fx_six)(void *, long, long, long, long, long, long);
btf_trace_fx_rq_issue fx_rq_issue_probe;
btf_trace_fx_bare fx_bare_probe;
btf_trace_fx_six fx_six_probe;
struct trace_event_raw_fx_rq fx_rq_record;

void __probestub_fx_rq_issue(void *__data, struct fx_request *rq, int error) { }
void trace_event_raw_event_fx_rq(void *__data, struct fx_request *rq, int error) { }
void __probestub_fx_six(void *__data, long a, long b, long c, long d, long e, long f) { }
