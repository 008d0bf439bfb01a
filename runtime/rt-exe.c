/* rt-exe.c - the identity of the executable, for the record's `exe` line
 * (docs/record-format.md): `perfpred validate` runs the program at the
 * recorded path again and first checks that it is still the one that made
 * the record.
 *
 * The identity is the executable's GNU build id (its NT_GNU_BUILD_ID note,
 * which the linker writes with --build-id, Debian's gcc default), read from
 * the running program's own program headers (dl_iterate_phdr: static and
 * dynamic executables alike) when the runtime starts: nothing to read at
 * exit, and nothing that takes the loader's lock in the writer a fatal
 * signal forks.  An executable without one gets its size and the FNV-1a
 * 64-bit hash of the contents of /proc/self/exe, computed when the record
 * is written (the analyser computes the same of the file; an mtime would
 * change with a copy or an identical rebuild, the contents do not).  Both
 * are the same in every run of one binary: records stay reproducible.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "rt-internal.h"

/* hex of the build id, "" when the executable has none (at most 64 bytes:
 * longer ones are not build ids the linker writes) */
static char pp_build_id[2 * 64 + 1];

static int note_build_id(const unsigned char *p, size_t len, size_t align)
{
    size_t off = 0;
    while (off + sizeof(ElfW(Nhdr)) <= len) {
        ElfW(Nhdr) nh;
        memcpy(&nh, p + off, sizeof nh);
        size_t name = off + sizeof nh;
        size_t nsz = ((size_t)nh.n_namesz + align - 1) & ~(align - 1);
        size_t dsz = ((size_t)nh.n_descsz + align - 1) & ~(align - 1);
        if (nsz > len - name || dsz > len - name - nsz)
            return 0;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(p + name, "GNU", 4) == 0 &&
            nh.n_descsz > 0 && nh.n_descsz <= 64) {
            static const char hex[] = "0123456789abcdef";
            const unsigned char *d = p + name + nsz;
            for (size_t i = 0; i < nh.n_descsz; i++) {
                pp_build_id[2 * i] = hex[d[i] >> 4];
                pp_build_id[2 * i + 1] = hex[d[i] & 15];
            }
            pp_build_id[2 * nh.n_descsz] = 0;
            return 1;
        }
        off = name + nsz + dsz;
    }
    return 0;
}

/* The first object dl_iterate_phdr reports is the program.  It is the
 * executable of /proc/self/exe, the record's `path`, unless the dynamic
 * loader was run as a command (`ld.so ./prog`): then the program has an
 * interpreter the kernel did not load (AT_BASE is 0), and the identity is
 * the loader's file's (the fallback), as `path` is. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (getauxval(AT_BASE) == 0)
        for (int i = 0; i < info->dlpi_phnum; i++)
            if (info->dlpi_phdr[i].p_type == PT_INTERP)
                return 1;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        size_t align = ph->p_align >= 8 ? 8 : 4;
        if (note_build_id((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, align))
            break;
    }
    return 1;
}

void pp_exe_init(void)
{
    pp_build_id[0] = 0;
    dl_iterate_phdr(first_object, NULL);
}

/* FNV-1a, 64 bits, of the file's bytes (analysis/exe-id.c does the same). */
static int hash_exe(uint64_t *size, uint64_t *hash)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    static unsigned char buf[1 << 16];
    uint64_t h = 0xcbf29ce484222325u, n = 0;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < r; i++) {
            h ^= buf[i];
            h *= 0x100000001b3u;
        }
        n += (uint64_t)r;
    }
    close(fd);
    if (r < 0)
        return -1;
    *size = n;
    *hash = h;
    return 0;
}

void pp_exe_print(FILE *f)
{
    uint64_t size, hash;
    if (pp_build_id[0])
        fprintf(f, "exe build_id=%s\n", pp_build_id);
    else if (hash_exe(&size, &hash) == 0)
        fprintf(f, "exe size=%" PRIu64 " hash=%016" PRIx64 "\n", size, hash);
}
