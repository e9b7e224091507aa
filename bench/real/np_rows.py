# numpy-rows: row gathers, concatenation, slicing and stacking of 4 KiB rows.
import hashlib

import numpy as np

rng = np.random.default_rng(3)
a = rng.random((4096, 512))                  # 16 MiB of float64, rows of 4 KiB
idx = rng.integers(0, 4096, 4096)
acc = np.zeros(512)
for it in range(80):
    b = a[idx]                               # a 4 KiB copy per row
    c = np.concatenate([b[:2048], b[2048:]], axis=1)
    d = c[:, 256:768].copy()
    acc += d[it]
    e = np.vstack([b[::2], b[1::2]])
    acc += e[it]
print(hashlib.sha256(acc.tobytes()).hexdigest())
