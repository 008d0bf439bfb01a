/* exe-id.c - the identity of an executable file, as the runtime records it
 * (runtime/rt-exe.c): its GNU build id (the NT_GNU_BUILD_ID note of a
 * PT_NOTE segment), or else its size and the FNV-1a 64-bit hash of its
 * bytes.  Plain ELF parsing with <elf.h>: no library.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include "exe-id.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The build id in a PT_NOTE segment's notes (ALIGN: 4, or 8 for a segment
 * aligned so), as hex in out; 1 when found. */
static int note_build_id(const unsigned char *p, size_t len, size_t align, char *out, size_t outlen)
{
    size_t off = 0;
    while (len >= 12 && off <= len - 12) {
        uint32_t h[3];
        memcpy(h, p + off, sizeof h);          /* n_namesz, n_descsz, n_type */
        size_t name = off + 12;
        size_t nsz = ((size_t)h[0] + align - 1) & ~(align - 1);
        size_t dsz = ((size_t)h[1] + align - 1) & ~(align - 1);
        if (nsz < h[0] || dsz < h[1] || nsz > len - name || dsz > len - name - nsz)
            return 0;
        if (h[2] == NT_GNU_BUILD_ID && h[0] == 4 && memcmp(p + name, "GNU", 4) == 0 && h[1] > 0 &&
            h[1] <= 64 && outlen > 2 * (size_t)h[1]) {
            static const char hex[] = "0123456789abcdef";
            const unsigned char *d = p + name + nsz;
            for (size_t i = 0; i < h[1]; i++) {
                out[2 * i] = hex[d[i] >> 4];
                out[2 * i + 1] = hex[d[i] & 15];
            }
            out[2 * (size_t)h[1]] = 0;
            return 1;
        }
        off = name + nsz + dsz;
    }
    return 0;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* One PT_NOTE segment's notes (at most 1 MiB of them). */
static int segment_build_id(int fd, uint64_t off, uint64_t size, uint64_t p_align, char *out, size_t outlen)
{
    if (size == 0 || size > (1u << 20))
        return 0;
    unsigned char *buf = malloc((size_t)size);
    if (!buf)
        return 0;
    int found = read_at(fd, buf, (size_t)size, off) == 0 &&
                note_build_id(buf, (size_t)size, p_align >= 8 ? 8 : 4, out, outlen);
    free(buf);
    return found;
}

int pp_exe_build_id(const char *path, char *out, size_t outlen)
{
    if (outlen)
        out[0] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned char ident[EI_NIDENT];
    int rc = -2;
    static const union { uint16_t u; unsigned char c[2]; } endian = { 1 };
    int native = endian.c[0] ? ELFDATA2LSB : ELFDATA2MSB;
    if (read_at(fd, ident, sizeof ident, 0) != 0 || memcmp(ident, ELFMAG, SELFMAG) != 0 || ident[EI_DATA] != native)
        goto out;
    if (ident[EI_CLASS] == ELFCLASS64) {
        Elf64_Ehdr eh;
        if (read_at(fd, &eh, sizeof eh, 0) != 0 || eh.e_phentsize != sizeof(Elf64_Phdr))
            goto out;
        rc = 0;
        for (unsigned i = 0; i < eh.e_phnum; i++) {
            Elf64_Phdr ph;
            if (read_at(fd, &ph, sizeof ph, eh.e_phoff + (uint64_t)i * sizeof ph) != 0) {
                rc = -2;
                break;
            }
            if (ph.p_type == PT_NOTE && segment_build_id(fd, ph.p_offset, ph.p_filesz, ph.p_align, out, outlen))
                break;
        }
    } else if (ident[EI_CLASS] == ELFCLASS32) {
        Elf32_Ehdr eh;
        if (read_at(fd, &eh, sizeof eh, 0) != 0 || eh.e_phentsize != sizeof(Elf32_Phdr))
            goto out;
        rc = 0;
        for (unsigned i = 0; i < eh.e_phnum; i++) {
            Elf32_Phdr ph;
            if (read_at(fd, &ph, sizeof ph, eh.e_phoff + (uint64_t)i * sizeof ph) != 0) {
                rc = -2;
                break;
            }
            if (ph.p_type == PT_NOTE && segment_build_id(fd, ph.p_offset, ph.p_filesz, ph.p_align, out, outlen))
                break;
        }
    }
out:
    close(fd);
    if (rc == -2 && outlen)
        out[0] = 0;
    return rc;
}

int pp_exe_hash(const char *path, uint64_t *size, uint64_t *hash)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned char buf[1 << 16];
    uint64_t h = 0xcbf29ce484222325u, n = 0;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        for (ssize_t i = 0; i < r; i++) {
            h ^= buf[i];
            h *= 0x100000001b3u;
        }
        n += (uint64_t)r;
    }
    close(fd);
    *size = n;
    *hash = h;
    return 0;
}

/* An id for the message: its first 16 digits, all of it when A and B
 * share those. */
static int shown(const char *a, const char *b)
{
    return strncmp(a, b, 16) == 0 ? 128 : 16;
}

int pp_exe_check(const pp_record *r, const char *path, char *err, size_t errlen)
{
    const char *rec = r->path ? r->path : "the record";
    if (!r->exe_build_id && !r->exe_hashed) {
        snprintf(err, errlen, "%s does not say which build of %s made it (a record of an older runtime): "
                              "cannot check that %s is still that program", rec, path, path);
        return 1;
    }
    if (r->exe_build_id) {
        char id[129];
        int rc = pp_exe_build_id(path, id, sizeof id);
        if (rc == -1) {
            snprintf(err, errlen, "%s, the program %s was recorded from, cannot be read: %s", path, rec,
                     strerror(errno));
            return -1;
        }
        if (rc == 0 && strcmp(id, r->exe_build_id) == 0)
            return 0;
        char what[400];
        if (rc == -2)
            snprintf(what, sizeof what, "it is not an ELF executable of this machine; the record's build id is %.16s..",
                     r->exe_build_id);
        else if (!id[0])
            snprintf(what, sizeof what, "it has no build id; the record's is %.16s..", r->exe_build_id);
        else {
            int k = shown(id, r->exe_build_id);
            snprintf(what, sizeof what, "build id %.*s%s differs from the record's %.*s%s", k, id,
                     k < (int)strlen(id) ? ".." : "", k, r->exe_build_id, k < (int)strlen(r->exe_build_id) ? ".." : "");
        }
        snprintf(err, errlen, "%s was rebuilt or replaced after %s was recorded (%s): record the program again, "
                              "or give the binary that made it with --run", path, rec, what);
        return -1;
    }
    uint64_t size, hash;
    if (pp_exe_hash(path, &size, &hash) != 0) {
        snprintf(err, errlen, "%s, the program %s was recorded from, cannot be read: %s", path, rec, strerror(errno));
        return -1;
    }
    if (size == r->exe_size && hash == r->exe_hash)
        return 0;
    char what[200];
    if (size != r->exe_size)
        snprintf(what, sizeof what, "it has %" PRIu64 " bytes, the record's binary had %" PRIu64, size, r->exe_size);
    else
        snprintf(what, sizeof what, "its contents' hash %016" PRIx64 " differs from the record's %016" PRIx64, hash,
                 r->exe_hash);
    snprintf(err, errlen, "%s was rebuilt or replaced after %s was recorded (%s): record the program again, "
                          "or give the binary that made it with --run", path, rec, what);
    return -1;
}
