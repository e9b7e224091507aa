/* settings.c - what a user can set over the policy's decision: the FASTCOPY_*
 * environment variables and the tuning file (docs/tuning.md), read once, inside the
 * decision the resolvers make (dispatch.c: fc_decide).
 *
 * Resolver-safe: no libc call, no allocation, no relocated data.  The environment
 * is read from /proc/self/environ and the file with raw system calls (rawsys.h),
 * and both are ignored when /proc/self/auxv says AT_SECURE (setuid/setgid/
 * capabilities), except a system file owned by root and not writable by others.
 * Precedence: FASTCOPY_* > tuning file > policy.  Each problem is one line
 * (control.c prints the first, once per process) and the value it would have
 * replaced stands.  Sizes use the library's
 * one grammar, fc_parse_size (util.c), which fcbench shares.  The names tunables
 * and variants had before (tunables_former.def, FC_VN_FORMER) are read like the
 * current ones, without a word; where both are given the current name wins. */
#include "kernels.h"
#include "rawsys.h"
#include "dispatch.h"
#include "control.h"

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
/* tunables_former.def: a former key and FASTCOPY_<env>, and the tunable now. */
static const struct {
    char key[24];
    char env[24];
    unsigned char t;
} fc_tun_former[] = {
#define FC_TUNABLE_FORMER(former, env, field) {#former, env, FC_T_##field},
#include "tunables_former.def"
#undef FC_TUNABLE_FORMER
};
#define FC_NFORMER (sizeof fc_tun_former / sizeof fc_tun_former[0])
/* Pairs that must be ordered (lo <= hi): a window whose start is above its end is
 * a mistake, not a way to close it (equal values close it). */
static const unsigned char fc_tun_order[][2] = {
    {FC_T_rep_movsb_start, FC_T_rep_movsb_stop},
    {FC_T_rep_stosb_start, FC_T_rep_stosb_stop},
    {FC_T_rep_stosb_stop, FC_T_rep_stosb_high_start},
};

static size_t *tun_field(struct fc_tunables *t, unsigned i)
{
    return (size_t *)((char *)t + fc_tun_rows[i].offset);
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

/* The settings being gathered: which came from where, for the order check and
 * fastcopy-info.  The environment is read first, the tuning file second, and a
 * file line for something the environment set is checked but does not apply
 * (FASTCOPY_* > tuning file > policy). */
struct fc_settings {
    const fc_cpu_t *cpu;
    struct fc_decision *d;
    struct fc_tunables def;    /* the policy's values */
    unsigned tun_env, tun_file;        /* bit per tunable */
    unsigned tun_env_now, tun_file_now; /* ... given by its current name */
    unsigned var_env, var_file;        /* bit per function */
    /* the tuning file being read */
    const char *path;
    int system; /* the system-wide one (not named by FASTCOPY_TUNING) */
    unsigned lineno;
    unsigned short first_line[FC_NTUN + FC_NFUNCS + FC_NFORMER];
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
        fc_strcat(d->why[f], FC_WHY_LEN, fc_arch_variant_name(f, d->sel[f]));
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
    if (fc_parse_size(val, &v) && v >= fc_tun_rows[t].min && v <= fc_tun_rows[t].max) {
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

/* The tunable of which name is a former name, and *k its row in fc_tun_former;
 * -1 when none.  name: a tuning-file key (file), else FASTCOPY_<env>. */
static int former_of(const char *name, int file, unsigned *k)
{
    for (*k = 0; *k < FC_NFORMER; (*k)++) {
        const char *former = file ? fc_tun_former[*k].key : fc_tun_former[*k].env;
        if (fc_streq(file ? name : name + 9, former))
            return fc_tun_former[*k].t;
    }
    return -1;
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
            s->tun_env_now |= 1u << t;
            apply_tunable_env(s, t, key, val);
            return;
        }
    unsigned k;
    int t = former_of(key, 0, &k);
    if (t >= 0) {
        /* the current name wins, whichever comes first in the environment */
        if (!(s->tun_env_now & (1u << t)))
            apply_tunable_env(s, (unsigned)t, key, val);
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
    const unsigned stosb = (1u << FC_T_rep_stosb_start) | (1u << FC_T_rep_stosb_stop) |
                           (1u << FC_T_rep_stosb_high_start);
    /* The one-window memset default (stop == high_start == start): a start
     * set alone moves that one window, as the policy would have. */
    if ((set & stosb) == (1u << FC_T_rep_stosb_start) &&
        def->rep_stosb_stop == def->rep_stosb_start &&
        def->rep_stosb_high_start == def->rep_stosb_start)
        d->tun.rep_stosb_stop = d->tun.rep_stosb_high_start = d->tun.rep_stosb_start;
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
        restore |= lo == FC_T_rep_movsb_start
                       ? (1u << FC_T_rep_movsb_start) | (1u << FC_T_rep_movsb_stop)
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
            fc_strcat(s->d->why[f], FC_WHY_LEN, fc_arch_variant_name(f, (unsigned)i));
            return;
        }
    unsigned former;
    int was = former_of(key, 1, &former);
    for (unsigned t = 0; t < FC_NTUN; t++) {
        if (!fc_tun_rows[t].env[0] ||
            (was >= 0 ? t != (unsigned)was : !fc_streq(key, fc_tun_rows[t].key)))
            continue;
        size_t v;
        if (!first_time(s, was >= 0 ? FC_NTUN + FC_NFUNCS + former : t, key))
            return;
        if (!fc_streq(fc_tun_rows[t].arch, FC_ARCH_NAME)) {
            bad_line(s, key, ": only used on ", fc_tun_rows[t].arch);
            return;
        }
        if (!fc_parse_size(val, &v) || v < fc_tun_rows[t].min || v > fc_tun_rows[t].max) {
            struct fc_line l;
            value_line_start(&l, s, key, val);
            add_bounds(&l, t);
            skipped_emit(&l);
            return;
        }
        if (s->tun_env & (1u << t))
            return; /* FASTCOPY_<NAME> wins */
        if (was >= 0 && s->tun_file_now & (1u << t))
            return; /* the current key wins over the former one */
        if (was < 0)
            s->tun_file_now |= 1u << t;
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
FC_HIDDEN void fc_apply_settings(const fc_cpu_t *cpu, struct fc_decision *d)
{
    struct fc_settings s;
    char tuning_path[256];
    int tuning_env = 0, secure = at_secure();

    fc_bytezero(&s, sizeof s);
    s.cpu = cpu;
    s.d = d;
    fc_bytecopy(&s.def, &d->tun, sizeof s.def);
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
