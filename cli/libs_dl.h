/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf, libelf and zlib, opened on first use (libs_dl.c), as libkmod is
 * (kmod_dl.h). Most commands call none of them, and mapping them was most of
 * what starting kstatsctl cost beyond libc: on the debug kernel under TCG,
 * where the lanes start kstatsctl hundreds of times, --version took 0.65 s
 * with them as shared libraries and 0.41 s with them linked in statically
 * (docs/tests.md).
 *
 * Included after the libraries' own headers, whose prototypes type each
 * pointer, it turns every call into a call through a pointer that dlsym()
 * finds once per call site. A library that cannot be opened ends kstatsctl
 * with an error naming its package: the packages depend on all three.
 */
#ifndef KSTATSCTL_LIBS_DL_H
#define KSTATSCTL_LIBS_DL_H

enum ks_lib { KS_LIB_BPF, KS_LIB_ELF, KS_LIB_Z };

/* @name's address in @lib; exits with an error when either is missing. */
void *ks_lib_sym(enum ks_lib lib, const char *name);

/* The macro named @f is not expanded again inside its own expansion. */
#define KS_LIB_CALL(lib, f)						\
	(*({								\
		static __typeof__(&f) ks_fn_;				\
		if (!ks_fn_)						\
			ks_fn_ = (__typeof__(&f))ks_lib_sym(lib, #f);	\
		ks_fn_;							\
	}))

#ifdef __LIBBPF_BTF_H
#define btf__find_by_name_kind(...) KS_LIB_CALL(KS_LIB_BPF, btf__find_by_name_kind)(__VA_ARGS__)
#define btf__free(...) KS_LIB_CALL(KS_LIB_BPF, btf__free)(__VA_ARGS__)
#define btf__load_vmlinux_btf(...) KS_LIB_CALL(KS_LIB_BPF, btf__load_vmlinux_btf)(__VA_ARGS__)
#define btf__name_by_offset(...) KS_LIB_CALL(KS_LIB_BPF, btf__name_by_offset)(__VA_ARGS__)
#define btf__parse(...) KS_LIB_CALL(KS_LIB_BPF, btf__parse)(__VA_ARGS__)
#define btf__parse_split(...) KS_LIB_CALL(KS_LIB_BPF, btf__parse_split)(__VA_ARGS__)
#define btf__resolve_type(...) KS_LIB_CALL(KS_LIB_BPF, btf__resolve_type)(__VA_ARGS__)
#define btf__type_by_id(...) KS_LIB_CALL(KS_LIB_BPF, btf__type_by_id)(__VA_ARGS__)
#define btf__type_cnt(...) KS_LIB_CALL(KS_LIB_BPF, btf__type_cnt)(__VA_ARGS__)
#endif
#ifdef __LIBBPF_LIBBPF_H
#define libbpf_get_error(...) KS_LIB_CALL(KS_LIB_BPF, libbpf_get_error)(__VA_ARGS__)
#define libbpf_set_print(...) KS_LIB_CALL(KS_LIB_BPF, libbpf_set_print)(__VA_ARGS__)
#endif
#ifdef _LIBELF_H
#define elf_begin(...) KS_LIB_CALL(KS_LIB_ELF, elf_begin)(__VA_ARGS__)
#define elf_end(...) KS_LIB_CALL(KS_LIB_ELF, elf_end)(__VA_ARGS__)
#define elf_getdata(...) KS_LIB_CALL(KS_LIB_ELF, elf_getdata)(__VA_ARGS__)
#define elf_getphdrnum(...) KS_LIB_CALL(KS_LIB_ELF, elf_getphdrnum)(__VA_ARGS__)
#define elf_getshdrstrndx(...) KS_LIB_CALL(KS_LIB_ELF, elf_getshdrstrndx)(__VA_ARGS__)
#define elf_kind(...) KS_LIB_CALL(KS_LIB_ELF, elf_kind)(__VA_ARGS__)
#define elf_nextscn(...) KS_LIB_CALL(KS_LIB_ELF, elf_nextscn)(__VA_ARGS__)
#define elf_strptr(...) KS_LIB_CALL(KS_LIB_ELF, elf_strptr)(__VA_ARGS__)
#define elf_version(...) KS_LIB_CALL(KS_LIB_ELF, elf_version)(__VA_ARGS__)
#endif
#ifdef _GELF_H
#define gelf_getehdr(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getehdr)(__VA_ARGS__)
#define gelf_getnote(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getnote)(__VA_ARGS__)
#define gelf_getphdr(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getphdr)(__VA_ARGS__)
#define gelf_getshdr(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getshdr)(__VA_ARGS__)
#define gelf_getsym(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getsym)(__VA_ARGS__)
#define gelf_getversym(...) KS_LIB_CALL(KS_LIB_ELF, gelf_getversym)(__VA_ARGS__)
#endif
#ifdef ZLIB_H
#define compress(...) KS_LIB_CALL(KS_LIB_Z, compress)(__VA_ARGS__)
#define compressBound(...) KS_LIB_CALL(KS_LIB_Z, compressBound)(__VA_ARGS__)
#define inflate(...) KS_LIB_CALL(KS_LIB_Z, inflate)(__VA_ARGS__)
#define inflateEnd(...) KS_LIB_CALL(KS_LIB_Z, inflateEnd)(__VA_ARGS__)
#define inflateInit_(...) KS_LIB_CALL(KS_LIB_Z, inflateInit_)(__VA_ARGS__)
#endif

#endif
