/* libnofuncs.c - a library that defines none of memcpy, memmove, memset: what
 * fcbench --with must refuse (bench/test-with.sh, musl builds). */
int fc_test_nofuncs(void);
int fc_test_nofuncs(void)
{
    return 1;
}
