/* usercopy_dlopen.c LIB - fc_copy_user/fc_clear_user from a dlopen'ed libfastcopy
 * under musl: its TLS must be usable from the thread that loads it, from a thread
 * that existed before the dlopen and from one created after.  Each checks the
 * exact counts at an inaccessible page.  Exit status 0 when every count is right. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static size_t (*copy_user)(void *, const void *, size_t);
static size_t (*clear_user)(void *, size_t);
static unsigned char *page;   /* page[0..4095] read-write, page[4096..] PROT_NONE */
static pthread_barrier_t loaded;

static int check(const char *who)
{
    static unsigned char dst[512];
    memset(page + 4096 - 200, 0x5a, 200);
    size_t r1 = copy_user(dst, page + 4096 - 100, 300);   /* 100 readable: 200 not copied */
    size_t r2 = clear_user(page + 4096 - 50, 120);        /* 50 writable: 70 not zeroed */
    size_t r3 = copy_user(dst, page, 64);                 /* no fault */
    int ok = r1 == 200 && dst[99] == 0x5a && r2 == 70 && page[4095] == 0 && r3 == 0;
    printf("%s: %zu %zu %zu %s\n", who, r1, r2, r3, ok ? "ok" : "BAD");
    return !ok;
}

static void *before(void *a)
{
    (void)a;
    pthread_barrier_wait(&loaded);   /* wait for the dlopen */
    return (void *)(long)check("thread started before dlopen");
}

static void *after(void *a)
{
    (void)a;
    return (void *)(long)check("thread started after dlopen");
}

int main(int argc, char **argv)
{
    pthread_t t1, t2;
    void *r1, *r2;
    if (argc < 2)
        return 2;
    page = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(page + 4096, 4096, PROT_NONE);
    pthread_barrier_init(&loaded, NULL, 2);
    pthread_create(&t1, NULL, before, NULL);
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    copy_user = (size_t (*)(void *, const void *, size_t))dlsym(h, "fc_copy_user");
    clear_user = (size_t (*)(void *, size_t))dlsym(h, "fc_clear_user");
    if (!copy_user || !clear_user)
        return 1;
    int bad = check("thread that dlopen'ed it");
    pthread_barrier_wait(&loaded);
    pthread_join(t1, &r1);
    pthread_create(&t2, NULL, after, NULL);
    pthread_join(t2, &r2);
    return bad || r1 || r2;
}
