#!/usr/bin/env python3
"""readme-commands.py SRCDIR BUILDDIR - runs every command of README.md's ```sh blocks,
so the README cannot drift from what the project does.

Each line runs in a scratch directory with a few mechanical substitutions: the install
goes to a staging directory (meson install --destdir, no sudo) and the installed paths
point there; `ninja` gets -j2; `meson setup DIR` gets the source directory; `./run
bench` runs with this build (FC_BUILD) and without installing packages (FC_NO_INSTALL),
as a --quick run.  The ```c block with main() is the app.c the README compiles.
`meson setup build` configures a scratch directory, `sudo ldconfig` runs on the
staged library directory, `./run real` runs the harness's checks on one program.
Only `./run test` is skipped (CI runs it); a README line that fails fails the test."""
import glob, os, re, shutil, subprocess, sys, tempfile

src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SKIP = {
    './run test': 'CI runs it (.ci/run)',
}
text = open(os.path.join(src, 'README.md')).read()
blocks = re.findall(r'```(\w*)\n(.*?)```', text, re.S)
lines = [l.strip() for lang, b in blocks if lang == 'sh' for l in b.split('\n')]
lines = [l for l in lines if l and not l.startswith('#')]
apps = [b for lang, b in blocks if lang == 'c' and 'int main' in b]

tmp = tempfile.mkdtemp(prefix='fc-readme-')
stage = os.path.join(tmp, 'stage')
env = dict(os.environ)
failed = ran = 0
try:
    if apps:
        open(os.path.join(tmp, 'app.c'), 'w').write(apps[0])
    for line in lines:
        key = re.sub(r'\s+#.*$', '', line)
        if key in SKIP:
            print('skip: %s (%s)' % (key, SKIP[key]))
            continue
        cmd = key
        if cmd.startswith('./run real'):
            # the harness's checks on one program (the timed run is a measurement)
            cmd = 'FC_BUILD=%s FC_NO_INSTALL=1 sh %s/run real --check-only --programs perl-text' % (build, src)
        if cmd.startswith('./run bench'):
            cmd = 'FC_BUILD=%s FC_NO_INSTALL=1 sh %s/run bench --quick --no-progress' % (build, src)
        cmd = cmd.replace('sudo meson install -C build', 'meson install -C build --quiet --destdir %s' % stage)
        cmd = re.sub(r'(^| )build/', r'\1%s/' % build, cmd)
        cmd = re.sub(r'-C build( |$)', r'-C %s\1' % build, cmd)
        cmd = cmd.replace('ninja -C', 'ninja -j2 -C')
        if cmd == 'meson setup build':
            # configured in a scratch directory; the commands after it use the
            # suite's own build (the one this test runs in)
            cmd = 'meson setup %s/build-readme %s -Dtests=disabled -Dbench=false' % (tmp, src)
        elif cmd.startswith('meson setup '):
            cmd += ' ' + src
        if cmd == 'sudo ldconfig':
            # against the staging root: the links in the staged library directory
            cmd = 'ldconfig -N -n %s' % os.path.dirname(sorted(glob.glob(os.path.join(
                stage, 'usr/local/lib*/**/libfastcopy.so.0'), recursive=True), key=len)[0])
        # the baseline copy: the shortest path (-Dhwcaps=true installs others below it)
        libs = sorted(glob.glob(os.path.join(stage, 'usr/local/lib*/**/libfastcopy.so.0'),
                                recursive=True), key=len)
        if libs:
            libdir = os.path.dirname(libs[0])
            cmd = cmd.replace('/usr/local/lib/x86_64-linux-gnu/libfastcopy.so.0', libs[0])
            env['LD_LIBRARY_PATH'] = libdir
            env['PKG_CONFIG_PATH'] = os.path.join(libdir, 'pkgconfig')
            env['PKG_CONFIG_SYSROOT_DIR'] = stage
            env['PATH'] = os.path.join(stage, 'usr/local/bin') + os.pathsep + os.environ['PATH']
        ran += 1
        r = subprocess.run(cmd, shell=True, cwd=tmp, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        tail = '\n'.join(r.stdout.rstrip('\n').split('\n')[-3:])
        if r.returncode:
            failed += 1
            print('FAIL (exit %d): %s\n  ran: %s\n%s' % (r.returncode, line, cmd, r.stdout[-3000:]))
        else:
            print('ok: %s\n  %s' % (line, tail.replace('\n', '\n  ')))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print('%d passed, %d failed' % (ran - failed, failed))
sys.exit(1 if failed or not ran else 0)
