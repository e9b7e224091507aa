"""A toy program list for bench/real/run.py --spec (test-real.sh): the copier
of test/ab/copier.c, whose path is in $FC_AB_COPIER."""
import os

import programs


class Copier(programs.Program):
    name, domain = "copier", "test"
    what = "test/ab/copier.c: 4 KiB copies through a 1 MiB ring"

    def argv(self, d):
        return [os.environ["FC_AB_COPIER"], "32"]


PROGRAMS = [Copier()]
