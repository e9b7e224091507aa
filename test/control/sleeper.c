/* sleeper.c - a process for fastcopy-info --pid to look at (test/control/info-pid.sh):
 * linked with libfastcopy (shared, or libfastcopy.a for the static one), it
 * copies once through memcpy, creates the file argv[1] to say it is up, and
 * sleeps until killed (60 s at most). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "fastcopy.h"

int main(int argc, char **argv)
{
    static char a[64] = "sleeper", b[64];
    void *(*volatile cp)(void *, const void *, size_t) = memcpy;
    cp(b, a, sizeof a);
    (void)fc_version();
    if (argc > 1) {
        int fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
        if (fd >= 0)
            close(fd);
    }
    for (int i = 0; i < 600; i++)
        usleep(100000);
    return b[0] != 's';
}
