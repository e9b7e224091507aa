/* dispatch.c - the load-time decision, the FASTCOPY_* overrides, and the API
 * around it (fc_memcpy/fc_memmove/fc_memset IFUNCs, fc_variants, fc_selected).
 *
 * fc_decide() runs inside IFUNC resolvers: probe -> policy -> overrides, once per
 * process, into static storage.  It makes no libc call and reads no relocated
 * data: everything it touches is code, char arrays or plain integers.
 *
 * Overrides are read from /proc/self/environ with raw syscalls (the resolver
 * cannot call getenv: libc is not initialised yet), and ignored entirely when
 * /proc/self/auxv says AT_SECURE (setuid/setgid/capabilities), as glibc ignores
 * its tunables there.  Each problem is one line (control.c prints the first,
 * once per process); the automatic choice stands. */
#include "kernels.h"
#include "rawsys.h"
#include "fastcopy.h"
#include "dispatch.h"
#include "control.h"
#include "fc_tun_offsets.h" /* its static assertions: the assembly's offsets are current */

struct fc_tunables fc_tun FC_HIDDEN __attribute__((aligned(FC_TUN_ALIGN)));
static struct fc_decision fc_dec;
static fc_cpu_t fc_cpu;

/* ---- settings: the tuning file and the FASTCOPY_* overrides ------------------------ */

static const char fc_func_env[FC_NFUNCS][20] = {"FASTCOPY_MEMCPY", "FASTCOPY_MEMMOVE",
                                                "FASTCOPY_MEMSET"};
/* tunables.def as data the resolver can read: char arrays and integers only. */
static const struct {
    char key[24];  /* field name = tuning-file key */
    char env[24];  /* FASTCOPY_<env>; "" = not settable */
    char arch[8];
    unsigned short offset;
    size_t min, max;
} fc_tun_rows[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) \
    {#field, env, arch, __builtin_offsetof(struct fc_tunables, field), min, max},
#include "tunables.def"
#undef FC_TUNABLE
};
/* Pairs that must be ordered (lo <= hi): a window whose start is above its end is
 * a mistake, not a way to close it (equal values close it). */
static const unsigned char fc_tun_order[][2] = {
    {FC_T_rep_movsb_threshold, FC_T_rep_movsb_stop},
    {FC_T_rep_stosb_threshold, FC_T_rep_stosb_stop},
    {FC_T_rep_stosb_stop, FC_T_rep_stosb_resume},
};

static size_t *tun_field(struct fc_tunables *t, unsigned i)
{
    return (size_t *)((char *)t + fc_tun_rows[i].offset);
}

static void copy_bytes(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    while (n--)
        *d++ = *s++;
}

/* One diagnostic line on stderr, built without libc. */
struct fc_line { char buf[384]; };

static void line_add(struct fc_line *l, const char *s)
{
    fc_strcat(l->buf, sizeof l->buf - 1, s);
}

static void line_start(struct fc_line *l, const char *key, const char *val)
{
    l->buf[0] = 0;
    line_add(l, "libfastcopy: ");
    line_add(l, key);
    if (val) {
        line_add(l, "=");
        line_add(l, val);
    }
    line_add(l, ": ");
}

/* Kept by control.c, which prints the first one, once per process (and none in
 * libfastcopy-trace.so). */
static void line_emit(struct fc_line *l)
{
    fc_diag_line(l->buf);
}

static void add_size(struct fc_line *l, size_t v)
{
    char num[32];
    num[0] = 0;
    fc_strcat_size(num, sizeof num, v);
    line_add(l, num);
}

static void add_uint(struct fc_line *l, unsigned v)
{
    char num[12];
    int k = sizeof num - 1;
    num[k] = 0;
    do
        num[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k > 0);
    line_add(l, num + k);
}

/* "123", "64K", "24M", "1G" (binary units) -> bytes; 0 on syntax error. */
static int parse_size(const char *s, size_t *out)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > ((uint64_t)1 << 50))
            return 0;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    int shift = 0;
    if (*s == 'k' || *s == 'K')
        shift = 10, s++;
    else if (*s == 'm' || *s == 'M')
        shift = 20, s++;
    else if (*s == 'g' || *s == 'G')
        shift = 30, s++;
    if (*s || v > ((uint64_t)1 << 50) >> shift)
        return 0;
    v <<= shift;
    *out = (size_t)v;
    return 1;
}

/* The settings being gathered: which came from where, for the order check and
 * fastcopy-info.  The environment is read first, the tuning file second, and a
 * file line for something the environment set is checked but does not apply
 * (FASTCOPY_* > tuning file > policy). */
struct fc_settings {
    const fc_cpu_t *cpu;
    struct fc_decision *d;
    struct fc_tunables def;    /* the policy's values */
    unsigned tun_env, tun_file;        /* bit per tunable */
    unsigned var_env, var_file;        /* bit per function */
    /* the tuning file being read */
    const char *path;
    int system; /* the system-wide one (not named by FASTCOPY_TUNING) */
    unsigned lineno;
    unsigned short first_line[FC_NTUN + FC_NFUNCS];
};

/* Why variant index i (fc_arch_variant_index's answer) cannot be used for
 * function f: unknown (listing the known names) or not usable on this CPU.  One
 * wording for the environment and the tuning file. */
static void line_add_bad_variant(struct fc_line *l, int f, int i)
{
    if (i >= 0) {
        line_add(l, "variant not usable on this CPU");
        return;
    }
    line_add(l, "unknown variant (known:");
    for (unsigned k = 0; k < fc_arch_variant_count(f); k++) {
        line_add(l, " ");
        line_add(l, fc_arch_variant_name(f, k));
    }
    line_add(l, ")");
}

/* "libfastcopy: tuning file PATH line N: " */
static void file_line_start(struct fc_line *l, const struct fc_settings *s)
{
    l->buf[0] = 0;
    line_add(l, "libfastcopy: tuning file ");
    line_add(l, s->path);
    if (s->lineno) {
        line_add(l, " line ");
        add_uint(l, s->lineno);
    }
    line_add(l, ": ");
}

/* The message for a value outside a tunable's bounds (the same for both sources). */
static void add_bounds(struct fc_line *l, unsigned t)
{
    line_add(l, "not a size ");
    if (fc_tun_rows[t].min) {
        line_add(l, "of ");
        add_size(l, fc_tun_rows[t].min);
        line_add(l, " to ");
    } else {
        line_add(l, "up to ");
    }
    add_size(l, fc_tun_rows[t].max);
    line_add(l, " bytes (suffixes K, M, G)");
}

static void set_variant_why(struct fc_decision *d, int f, const char *by, const char *key,
                            const char *val)
{
    d->why[f][0] = 0;
    fc_strcat(d->why[f], FC_WHY_LEN, by);
    fc_strcat(d->why[f], FC_WHY_LEN, key);
    fc_strcat(d->why[f], FC_WHY_LEN, val);
}

static void apply_variant_env(struct fc_settings *s, int f, const char *key, const char *val)
{
    struct fc_decision *d = s->d;
    struct fc_line l;
    if (!*val || fc_streq(val, "auto"))
        return;
    int i = fc_arch_variant_index(f, val);
    if (i >= 0 && fc_arch_usable(s->cpu, f, (unsigned)i)) {
        d->sel[f] = (unsigned char)i;
        d->sel_from[f] = FC_FROM_ENV;
        s->var_env |= 1u << f;
        set_variant_why(d, f, "forced by ", key, "=");
        fc_strcat(d->why[f], FC_WHY_LEN, val);
        return;
    }
    line_start(&l, key, val);
    line_add_bad_variant(&l, f, i);
    line_add(&l, "; keeping ");
    line_add(&l, fc_arch_variant_name(f, d->sel[f]));
    line_emit(&l);
}

static void apply_tunable_env(struct fc_settings *s, unsigned t, const char *key,
                              const char *val)
{
    size_t v;
    size_t *field = tun_field(&s->d->tun, t);
    struct fc_line l;
    line_start(&l, key, val);
    if (!fc_streq(fc_tun_rows[t].arch, FC_ARCH_NAME)) {
        line_add(&l, "only used on ");
        line_add(&l, fc_tun_rows[t].arch);
        line_add(&l, ", ignored on " FC_ARCH_NAME);
        line_emit(&l);
        return;
    }
    if (parse_size(val, &v) && v >= fc_tun_rows[t].min && v <= fc_tun_rows[t].max) {
        *field = v;
        s->d->tun_from[t] = FC_FROM_ENV;
        s->tun_env |= 1u << t;
        return;
    }
    add_bounds(&l, t);
    line_add(&l, "; keeping ");
    add_size(&l, *field);
    line_emit(&l);
}

/* 1 when key is FASTCOPY_<env> of tunable t. */
static int is_env_of(const char *key, unsigned t)
{
    return fc_tun_rows[t].env[0] && fc_streq(key + 9, fc_tun_rows[t].env);
}

static void apply_env(struct fc_settings *s, const char *key, const char *val)
{
    if (fc_control_env(key, val)) /* FASTCOPY_DISABLE, FASTCOPY_QUIET */
        return;
    for (int f = 0; f < FC_NFUNCS; f++)
        if (fc_streq(key, fc_func_env[f])) {
            apply_variant_env(s, f, key, val);
            return;
        }
    for (unsigned t = 0; t < FC_NTUN; t++)
        if (is_env_of(key, t)) {
            apply_tunable_env(s, t, key, val);
            return;
        }
    struct fc_line l;
    line_start(&l, key, 0);
    line_add(&l, "unknown FASTCOPY_ variable, ignored");
    line_emit(&l);
}

/* "FASTCOPY_X=64K" (environment), "x = 64K in the tuning file", or
 * "FASTCOPY_X (default 24M)". */
static void add_setting(struct fc_line *l, const struct fc_settings *s, unsigned i)
{
    size_t v = *tun_field(&s->d->tun, i);
    if (s->tun_file & (1u << i) && !(s->tun_env & (1u << i))) {
        line_add(l, fc_tun_rows[i].key);
        line_add(l, " = ");
        add_size(l, v);
        line_add(l, " in the tuning file");
        return;
    }
    line_add(l, "FASTCOPY_");
    line_add(l, fc_tun_rows[i].env);
    int set = (s->tun_env >> i) & 1;
    line_add(l, set ? "=" : " (default ");
    add_size(l, v);
    if (!set)
        line_add(l, ")");
}

/* After every setting is read: the ordered pairs.  Each pair out of order (with
 * at least one side set) is one line, and the pair's group (rep movsb, or the
 * three rep stosb values) goes back to the policy's values. */
static void check_order(struct fc_settings *s)
{
    struct fc_decision *d = s->d;
    const struct fc_tunables *def = &s->def;
    unsigned set = s->tun_env | s->tun_file, restore = 0;
    const unsigned stosb = (1u << FC_T_rep_stosb_threshold) | (1u << FC_T_rep_stosb_stop) |
                           (1u << FC_T_rep_stosb_resume);
    /* The one-window memset default (stop == resume == threshold): a threshold
     * set alone moves that one window, as the policy would have. */
    if ((set & stosb) == (1u << FC_T_rep_stosb_threshold) &&
        def->rep_stosb_stop == def->rep_stosb_threshold &&
        def->rep_stosb_resume == def->rep_stosb_threshold)
        d->tun.rep_stosb_stop = d->tun.rep_stosb_resume = d->tun.rep_stosb_threshold;
    for (unsigned k = 0; k < sizeof fc_tun_order / sizeof fc_tun_order[0]; k++) {
        unsigned lo = fc_tun_order[k][0], hi = fc_tun_order[k][1];
        if (!(set & ((1u << lo) | (1u << hi))) ||
            *tun_field(&d->tun, lo) <= *tun_field(&d->tun, hi))
            continue;
        struct fc_line l;
        l.buf[0] = 0;
        line_add(&l, "libfastcopy: ");
        add_setting(&l, s, lo);
        line_add(&l, " is above ");
        add_setting(&l, s, hi);
        line_add(&l, ": an empty window (equal sizes close it); keeping the automatic ");
        add_size(&l, *tun_field((struct fc_tunables *)def, lo));
        line_add(&l, " and ");
        add_size(&l, *tun_field((struct fc_tunables *)def, hi));
        line_emit(&l);
        restore |= lo == FC_T_rep_movsb_threshold
                       ? (1u << FC_T_rep_movsb_threshold) | (1u << FC_T_rep_movsb_stop)
                       : stosb;
    }
    for (unsigned i = 0; i < FC_NTUN; i++)
        if (restore & (1u << i)) {
            *tun_field(&d->tun, i) = *tun_field((struct fc_tunables *)def, i);
            d->tun_from[i] = FC_FROM_POLICY;
        }
}

/* 1 when the auxiliary vector says AT_SECURE, or cannot be read or lacks the
 * entry (be safe). */
static int at_secure(void)
{
    uint64_t v = 1;
    return fc_auxv_get(23 /* AT_SECURE */, &v) != 1 || v != 0;
}

/* ---- the tuning file (docs/tuning.md) ---- */

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* 1 when s starts with prefix; *rest = what follows. */
static int starts_with(const char *s, const char *prefix, const char **rest)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return 0;
    *rest = s;
    return 1;
}

static void set_status(struct fc_settings *s, const char *a, const char *b, const char *c)
{
    char *t = s->d->tuning;
    t[0] = 0;
    fc_strcat(t, FC_TUNING_LEN, a);
    fc_strcat(t, FC_TUNING_LEN, b);
    fc_strcat(t, FC_TUNING_LEN, c);
}

/* The whole file is ignored: one line, and the status says why. */
static void file_ignored(struct fc_settings *s, const char *why)
{
    struct fc_line l;
    s->lineno = 0;
    file_line_start(&l, s);
    line_add(&l, why);
    line_add(&l, "; ignored");
    line_emit(&l);
    set_status(s, s->path, ": ignored: ", why);
}

/* The first line: "# libfastcopy tuning 1; cpu: <identity>; libfastcopy <version>..."
 * 1 when it names this CPU. */
static int file_header(struct fc_settings *s, const char *line)
{
    char me[FC_IDENTITY_LEN];
    const char *p, *q;
    if (!starts_with(line, FC_TUNING_MAGIC "; cpu: ", &p)) {
        file_ignored(s, "not a libfastcopy tuning file (the first line must begin \""
                        FC_TUNING_MAGIC "; cpu: \")");
        return 0;
    }
    fc_arch_identity(s->cpu, me, sizeof me);
    q = p;
    while (*q && *q != ';')
        q++;
    size_t n = (size_t)(q - p);
    if (n != fc_strlen(me) || !starts_with(p, me, &q)) {
        struct fc_line l;
        s->lineno = 0;
        file_line_start(&l, s);
        line_add(&l, "measured on another CPU (");
        char other[96];
        size_t k = 0;
        for (; k < n && k < sizeof other - 1; k++)
            other[k] = p[k];
        other[k] = 0;
        line_add(&l, other);
        line_add(&l, "; this one: ");
        line_add(&l, me);
        line_add(&l, "); ignored");
        /* the system-wide file after a migration: fastcopy-info says it, not
         * every process */
        if (!s->system)
            line_emit(&l);
        set_status(s, s->path, ": ignored: measured on another CPU (", other);
        fc_strcat(s->d->tuning, FC_TUNING_LEN, ")");
        return 0;
    }
    set_status(s, s->path, "", "");
    if (starts_with(q, "; libfastcopy ", &p)) {
        char ver[24];
        size_t k = 0;
        while (p[k] && p[k] != ';' && k < sizeof ver - 1) {
            ver[k] = p[k];
            k++;
        }
        ver[k] = 0;
        fc_strcat(s->d->tuning, FC_TUNING_LEN, " (measured on this CPU with libfastcopy ");
        fc_strcat(s->d->tuning, FC_TUNING_LEN, ver);
        fc_strcat(s->d->tuning, FC_TUNING_LEN, ")");
    } else {
        fc_strcat(s->d->tuning, FC_TUNING_LEN, " (measured on this CPU)");
    }
    return 1;
}

/* The tuning file's line for a value it does not take: "... line N: KEY = VALUE: "
 * here, the reason after it, then "; skipped" by skipped_emit. */
static void value_line_start(struct fc_line *l, const struct fc_settings *s, const char *key,
                             const char *val)
{
    file_line_start(l, s);
    line_add(l, key);
    line_add(l, " = ");
    line_add(l, val);
    line_add(l, ": ");
}

static void skipped_emit(struct fc_line *l)
{
    line_add(l, "; skipped");
    line_emit(l);
}

static void bad_line(struct fc_settings *s, const char *a, const char *b, const char *c)
{
    struct fc_line l;
    file_line_start(&l, s);
    line_add(&l, a);
    line_add(&l, b);
    line_add(&l, c);
    skipped_emit(&l);
}

/* 0 when the key was given before (one line says so). */
static int first_time(struct fc_settings *s, unsigned k, const char *key)
{
    if (s->first_line[k]) {
        struct fc_line l;
        file_line_start(&l, s);
        line_add(&l, key);
        line_add(&l, " given again (first at line ");
        add_uint(&l, s->first_line[k]);
        line_add(&l, "); skipped, the first stands");
        line_emit(&l);
        return 0;
    }
    s->first_line[k] = (unsigned short)(s->lineno < 65535 ? s->lineno : 65535);
    return 1;
}

/* One line after the first: "key = value", blank, or "# comment"; a comment may
 * also follow a value. */
static void file_setting(struct fc_settings *s, char *line)
{
    char *p = line, *key, *val, *end;
    for (char *c = line; *c; c++)
        if (*c == '#') {
            *c = 0;
            break;
        }
    while (is_space(*p))
        p++;
    if (!*p)
        return;
    key = p;
    while (*p && *p != '=' && !is_space(*p))
        p++;
    end = p;
    while (is_space(*p))
        p++;
    if (*p != '=') {
        bad_line(s, "not \"key = value\"", "", "");
        return;
    }
    *end = 0;
    p++;
    while (is_space(*p))
        p++;
    val = p;
    end = val + fc_strlen(val);
    while (end > val && is_space(end[-1]))
        *--end = 0;
    for (int f = 0; f < FC_NFUNCS; f++)
        if (fc_streq(key, fc_func_name(f))) {
            if (!first_time(s, FC_NTUN + (unsigned)f, key))
                return;
            if (fc_streq(val, "auto"))
                return;
            int i = fc_arch_variant_index(f, val);
            if (i < 0 || !fc_arch_usable(s->cpu, f, (unsigned)i)) {
                struct fc_line l;
                value_line_start(&l, s, key, val);
                line_add_bad_variant(&l, f, i);
                skipped_emit(&l);
                return;
            }
            if (s->var_env & (1u << f))
                return; /* FASTCOPY_<FUNC> wins */
            s->d->sel[f] = (unsigned char)i;
            s->d->sel_from[f] = FC_FROM_FILE;
            s->var_file |= 1u << f;
            set_variant_why(s->d, f, "set by the tuning file: ", key, " = ");
            fc_strcat(s->d->why[f], FC_WHY_LEN, val);
            return;
        }
    for (unsigned t = 0; t < FC_NTUN; t++) {
        if (!fc_tun_rows[t].env[0] || !fc_streq(key, fc_tun_rows[t].key))
            continue;
        size_t v;
        if (!first_time(s, t, key))
            return;
        if (!fc_streq(fc_tun_rows[t].arch, FC_ARCH_NAME)) {
            bad_line(s, key, ": only used on ", fc_tun_rows[t].arch);
            return;
        }
        if (!parse_size(val, &v) || v < fc_tun_rows[t].min || v > fc_tun_rows[t].max) {
            struct fc_line l;
            value_line_start(&l, s, key, val);
            add_bounds(&l, t);
            skipped_emit(&l);
            return;
        }
        if (s->tun_env & (1u << t))
            return; /* FASTCOPY_<NAME> wins */
        *tun_field(&s->d->tun, t) = v;
        s->d->tun_from[t] = FC_FROM_FILE;
        s->tun_file |= 1u << t;
        return;
    }
    bad_line(s, "unknown key \"", key, "\"");
}

/* Reads the tuning file at path: at most FC_TUNING_MAX bytes, lines of at most
 * 255 bytes, with raw system calls.  system: the system-wide file, which may be
 * absent without a word, and under AT_SECURE counts only when owned by root and
 * not writable by group or others. */
static void load_tuning(struct fc_settings *s, const char *path, int system, int secure)
{
    char chunk[512], line[256];
    size_t len = 0, total = 0;
    int toolong = 0, header = 0, binary = 0;
    long fd, n;
    struct fc_stat st;

    s->path = path;
    s->system = system;
    s->lineno = 0;
    fd = fc_open_ro_nonblock(path);
    if (fd < 0) {
        if (system && (fd == -2 /* ENOENT */ || fd == -20 /* ENOTDIR */)) {
            set_status(s, "none (no FASTCOPY_TUNING, no " FC_TUNING_SYSTEM ")", "", "");
            return;
        }
        file_ignored(s, fd == -13 /* EACCES */ ? "cannot be read (permission denied)"
                        : fd == -2 ? "does not exist" : "cannot be opened");
        return;
    }
    if (fc_fstat(fd, &st) < 0 || (st.mode & 0170000) != 0100000) {
        file_ignored(s, "not a regular file");
        fc_close(fd);
        return;
    }
    if (system && secure && (st.uid != 0 || (st.mode & 022))) {
        file_ignored(s, "not owned by root or writable by group or others, and this "
                        "program runs with privileges (AT_SECURE)");
        fc_close(fd);
        return;
    }
    if (st.size > FC_TUNING_MAX) {
        file_ignored(s, "larger than 16 KiB (not a tuning file)");
        fc_close(fd);
        return;
    }
    if (st.size == 0) {
        file_ignored(s, "empty");
        fc_close(fd);
        return;
    }
    while (total < FC_TUNING_MAX &&
           (n = fc_read(fd, chunk, sizeof chunk < FC_TUNING_MAX - total
                                       ? sizeof chunk : FC_TUNING_MAX - total)) > 0) {
        total += (size_t)n;
        for (long i = 0; i < n; i++) {
            char ch = chunk[i];
            if (ch != '\n') {
                if (ch == 0)
                    binary = 1;
                if (len < sizeof line - 1)
                    line[len++] = ch;
                else
                    toolong = 1;
                continue;
            }
            if (len && line[len - 1] == '\r')
                len--;
            line[len] = 0;
            s->lineno++;
            if (!header) {
                if (binary || toolong) {
                    file_ignored(s, "not a libfastcopy tuning file (binary or overlong "
                                    "first line)");
                    fc_close(fd);
                    return;
                }
                if (!file_header(s, line)) {
                    fc_close(fd);
                    return;
                }
                header = 1;
            } else if (binary) {
                bad_line(s, "not text (a NUL byte)", "", "");
            } else if (toolong) {
                bad_line(s, "longer than 255 bytes", "", "");
            } else {
                file_setting(s, line);
            }
            len = 0;
            toolong = binary = 0;
        }
    }
    fc_close(fd);
    if (!header) {
        file_ignored(s, "not a libfastcopy tuning file (no complete first line)");
        return;
    }
    if (len || toolong) {
        s->lineno++;
        bad_line(s, "no newline at the end (a truncated file?)", "", "");
    }
}

/* The environment (/proc/self/environ, unless AT_SECURE), then the tuning file
 * (FASTCOPY_TUNING, else the system file), then the order check.  Each problem
 * is one line (control.c); what was not set stays the policy's. */
static void apply_settings(const fc_cpu_t *cpu, struct fc_decision *d)
{
    struct fc_settings s;
    char tuning_path[256];
    int tuning_env = 0, secure = at_secure();

    fc_bytezero(&s, sizeof s);
    s.cpu = cpu;
    s.d = d;
    copy_bytes(&s.def, &d->tun, sizeof s.def);
    tuning_path[0] = 0;
    if (!secure) {
        /* /proc/self/environ is a sequence of NUL-terminated "KEY=value" strings;
         * it is read in chunks, and an entry longer than 255 bytes is ignored. */
        char chunk[512], entry[256];
        size_t len = 0;
        int toolong = 0;
        long fd = fc_open_ro("/proc/self/environ"), n;
        while (fd >= 0 && (n = fc_read(fd, chunk, sizeof chunk)) > 0) {
            for (long i = 0; i < n; i++) {
                char ch = chunk[i];
                if (ch) {
                    if (len < sizeof entry - 1)
                        entry[len++] = ch;
                    else
                        toolong = 1;
                    continue;
                }
                entry[len] = 0;
                const char *rest;
                if (!toolong && starts_with(entry, "FASTCOPY_", &rest)) {
                    char *eq = entry;
                    while (*eq && *eq != '=')
                        eq++;
                    if (*eq == '=') {
                        *eq = 0;
                        if (fc_streq(entry, "FASTCOPY_TUNING")) {
                            tuning_env = 1;
                            tuning_path[0] = 0;
                            fc_strcat(tuning_path, sizeof tuning_path, eq + 1);
                        } else {
                            apply_env(&s, entry, eq + 1);
                        }
                    }
                }
                len = 0;
                toolong = 0;
            }
        }
        if (fd >= 0)
            fc_close(fd);
    }
    if (tuning_env && !tuning_path[0])
        set_status(&s, "none (FASTCOPY_TUNING is empty)", "", "");
    else if (tuning_env)
        load_tuning(&s, tuning_path, 0, secure);
    else
        load_tuning(&s, FC_TUNING_SYSTEM, 1, secure);
    check_order(&s);
}

/* ---- the decision --------------------------------------------------------------- */

/* The decision is published once: fc_state 0 = not made, 1 = one caller is
 * storing it, 2 = made.  Callers can race: lazy binding under glibc, and where
 * the C library has no IFUNC (musl) the first calls of any name, from several
 * threads at once, a signal handler or another library's constructor (see
 * fc_bind_all).  Each racer computes the decision into its own stack copy (it is a
 * pure function of the CPU and the initial environment: every copy is the same),
 * and only the one that wins the compare-and-swap stores it, with every signal
 * blocked on its thread, so that no handler of that thread can find the state at
 * 1 and wait for itself.  The others wait for 2 (another thread, a few hundred
 * stores away). */
static int fc_state;

FC_HIDDEN const struct fc_decision *fc_decide(uint64_t a0, const void *a1)
{
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) == 2)
        return &fc_dec;
    struct fc_decision d;
    fc_cpu_t c;
    uint64_t mask;
    int idle = 0;
    fc_arch_probe(&c, a0, a1);
    fc_arch_policy(&c, &d);
    apply_settings(&c, &d);
    fc_sigblock_all(&mask);
    if (__atomic_compare_exchange_n(&fc_state, &idle, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_ACQUIRE)) {
        copy_bytes(&fc_cpu, &c, sizeof c);
        copy_bytes(&fc_dec, &d, sizeof d);
        copy_bytes(&fc_tun, &d.tun, sizeof fc_tun);
        __atomic_store_n(&fc_state, 2, __ATOMIC_RELEASE);
    }
    fc_sigrestore(&mask);
    while (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) != 2)
        fc_sched_yield();
    fc_diag_flush();
    return &fc_dec;
}

FC_HIDDEN const struct fc_decision *fc_decide_runtime(void)
{
    uint64_t a0;
    const void *a1;
    /* Made already: no need for the arguments (under musl on aarch64 they are
     * read from /proc/self/auxv, arch.h). */
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) == 2)
        return &fc_dec;
    fc_arch_runtime_args(&a0, &a1);
    return fc_decide(a0, a1);
}

FC_HIDDEN const void *fc_cpu_facts(void)
{
    fc_decide_runtime();
    return &fc_cpu;
}

/* ---- public API ----------------------------------------------------------------- */

/* The kernel of variant i of function f (kernels.h); the portable one past the end. */
#define FC_PICKED(name, sym) (void *)sym
static void *kernel_of(int f, unsigned i)
{
    if (f == FC_MEMSET) {
        FC_PICK_KERNEL(FC_MEMSET_VARIANTS, i);
        return (void *)fc_memset_generic;
    }
    if (f == FC_MEMCPY)
        FC_PICK_KERNEL(FC_MEMCPY_VARIANTS, i);
    else
        FC_PICK_KERNEL(FC_MEMMOVE_VARIANTS, i);
    return (void *)fc_memmove_generic;
}

#if FC_HAVE_IFUNC && defined(FC_NO_IFUNC)
/* No GNU IFUNC in the C library: fc_memcpy/fc_memmove/fc_memset are jumps through
 * slots that start at resolving stubs (dispatch.h); fc_bind_all fills them and,
 * when the drop-in names are linked in, theirs (exports.c). */
FC_SLOT_AT_STUB(void *, fc_memcpy, (void *restrict, const void *restrict, size_t))
FC_SLOT_AT_STUB(void *, fc_memmove, (void *, const void *, size_t))
FC_SLOT_AT_STUB(void *, fc_memset, (void *, int, size_t))
__asm__(FC_TRAMPOLINE_ASM("fc_memcpy") FC_TRAMPOLINE_ASM("fc_memmove")
            FC_TRAMPOLINE_ASM("fc_memset"));

/* The slots are filled after the decision, each with a store-release; why plain
 * loads of them in the trampolines are enough: dispatch.h, "Memory ordering". */
FC_HIDDEN void fc_bind_all(void)
{
    const struct fc_decision *d = fc_decide_runtime();
    FC_SLOT_FILL(fc_memcpy, (void *(*)(void *restrict, const void *restrict, size_t))
                                kernel_of(FC_MEMCPY, d->sel[FC_MEMCPY]));
    FC_SLOT_FILL(fc_memmove, (fc_copy_fn)kernel_of(FC_MEMMOVE, d->sel[FC_MEMMOVE]));
    FC_SLOT_FILL(fc_memset, (fc_set_fn)kernel_of(FC_MEMSET, d->sel[FC_MEMSET]));
    if (fc_bind_exports)
        fc_bind_exports();
}

FC_HIDDEN void fc_bind_reset_for_tests(void)
{
    if (fc_unbind_exports_for_tests)
        fc_unbind_exports_for_tests();
    FC_SLOT_FILL(fc_memcpy, (void *(*)(void *restrict, const void *restrict, size_t))
                                fc_stub_fc_memcpy);
    FC_SLOT_FILL(fc_memmove, (fc_copy_fn)fc_stub_fc_memmove);
    FC_SLOT_FILL(fc_memset, (fc_set_fn)fc_stub_fc_memset);
    __atomic_store_n(&fc_state, 0, __ATOMIC_RELEASE);
}

/* The decision early, before main (and before most constructors of the libraries
 * loaded after this one); a call that comes earlier goes through a stub. */
__attribute__((constructor)) static void fc_bind_at_load(void)
{
    fc_bind_all();
}
#elif FC_HAVE_IFUNC
typedef void *(*fc_memcpy_t)(void *restrict, const void *restrict, size_t);
__attribute__((used)) static fc_memcpy_t resolve_fc_memcpy(uint64_t a0, const void *a1)
{
    return (fc_memcpy_t)kernel_of(FC_MEMCPY, fc_decide(a0, a1)->sel[FC_MEMCPY]);
}
__attribute__((used)) static fc_copy_fn resolve_fc_memmove(uint64_t a0, const void *a1)
{
    return (fc_copy_fn)kernel_of(FC_MEMMOVE, fc_decide(a0, a1)->sel[FC_MEMMOVE]);
}
__attribute__((used)) static fc_set_fn resolve_fc_memset(uint64_t a0, const void *a1)
{
    return (fc_set_fn)kernel_of(FC_MEMSET, fc_decide(a0, a1)->sel[FC_MEMSET]);
}
#ifdef FC_TRACE_BUILD
/* libfastcopy-trace.so: hidden here, exported by src/trace.c as plain functions
 * (as IFUNC symbols, glibc printed "Relink `libfastcopy.so.0' with
 * `libfastcopy-trace.so' for IFUNC symbol `fc_memcpy'" in a traced program that
 * links libfastcopy.so, whose own calls of fc_memcpy bind to the preloaded one). */
FC_HIDDEN void *fc_traced_fc_memcpy(void *restrict, const void *restrict, size_t)
    __attribute__((ifunc("resolve_fc_memcpy")));
FC_HIDDEN void *fc_traced_fc_memmove(void *, const void *, size_t)
    __attribute__((ifunc("resolve_fc_memmove")));
FC_HIDDEN void *fc_traced_fc_memset(void *, int, size_t) __attribute__((ifunc("resolve_fc_memset")));
#else
FC_API void *fc_memcpy(void *restrict, const void *restrict, size_t)
    __attribute__((ifunc("resolve_fc_memcpy")));
FC_API void *fc_memmove(void *, const void *, size_t) __attribute__((ifunc("resolve_fc_memmove")));
FC_API void *fc_memset(void *, int, size_t) __attribute__((ifunc("resolve_fc_memset")));
#endif
#else
FC_API void *fc_memcpy(void *restrict d, const void *restrict s, size_t n)
{
    return fc_memcpy_generic(d, s, n);
}
FC_API void *fc_memmove(void *d, const void *s, size_t n)
{
    return fc_memmove_generic(d, s, n);
}
FC_API void *fc_memset(void *d, int c, size_t n)
{
    return fc_memset_generic(d, c, n);
}
#endif

#define FC_COUNT(name, sym) +1
#define FC_NVARIANTS (0 FC_MEMCPY_VARIANTS(FC_COUNT) FC_MEMMOVE_VARIANTS(FC_COUNT) \
                      FC_MEMSET_VARIANTS(FC_COUNT))
static struct fc_variant fc_variant_list[FC_NVARIANTS];

FC_API size_t fc_variants(const struct fc_variant **list)
{
    static const char funcs[FC_NFUNCS][8] = {"memcpy", "memmove", "memset"};
    size_t k = 0;
    fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        for (unsigned i = 0; i < fc_arch_variant_count(f); i++, k++) {
            struct fc_variant *v = &fc_variant_list[k];
            v->func = funcs[f];
            v->name = fc_arch_variant_name(f, i);
            v->fn = (void (*)(void))kernel_of(f, i);
            v->usable = fc_arch_usable(&fc_cpu, f, i);
        }
    if (list)
        *list = fc_variant_list;
    return k;
}

FC_API const char *fc_selected(const char *func)
{
    const struct fc_decision *d = fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        if (func && fc_streq(func, fc_func_name(f)))
            return fc_arch_variant_name(f, d->sel[f]);
    return 0;
}

/* "libfastcopy 0.1.0": what `strings libfastcopy.so` finds, and what fc_version
 * returns the number part of. */
static const char fc_ident[] = "libfastcopy " FASTCOPY_VERSION_STRING;

FC_API const char *fc_version(void)
{
    return fc_ident + sizeof "libfastcopy " - 1;
}

/* For fastcopy-info and the tests (not exported): why each function got its variant. */
FC_HIDDEN const char *fc_selected_reason(const char *func)
{
    const struct fc_decision *d = fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        if (func && fc_streq(func, fc_func_name(f)))
            return d->why[f];
    return 0;
}
